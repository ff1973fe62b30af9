// TypeBox schemas for sign-in.
import { t } from "elysia";
import { Text } from "../../http/schema";

export const LoginBody = t.Object({
  // An empty field reads as one left out; one too long or of the wrong type says so (src/errors.ts).
  email: Text({ minLength: 3, maxLength: 320, minLengthError: "email is required" }),
  password: Text({ minLength: 1, maxLength: 1024, minLengthError: "password is required" }),
});
export type LoginBody = typeof LoginBody.static;
