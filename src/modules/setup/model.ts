// TypeBox schemas for first-run setup and open registration.
import { t } from "elysia";
import { Text } from "../../http/schema";

const account = {
  email: Text({ minLength: 3, maxLength: 320, pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", patternError: "email must be an e-mail address", minLengthError: "email must be an e-mail address" }),
  display_name: Text({ minLength: 1, maxLength: 100, error: "display_name must be 1-100 characters" }),
  password: Text({ minLength: 8, maxLength: 1024 }), // "must be at least 8 characters" / "at most 1024"
};

export const SetupBody = t.Object({ setup_code: Text({ minLength: 1, maxLength: 64, minLengthError: "setup_code is required" }), ...account });
export type SetupBody = typeof SetupBody.static;

export const RegisterBody = t.Object(account);
export type RegisterBody = typeof RegisterBody.static;
