// TypeBox schemas for sign-in.
import { t } from "elysia";
import { Text } from "../../http/schema";

export const LoginBody = t.Object({
  email: Text({ minLength: 3, maxLength: 320, error: "email is required" }),
  password: Text({ minLength: 1, maxLength: 1024, error: "password is required" }),
});
export type LoginBody = typeof LoginBody.static;
