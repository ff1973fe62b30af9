// TypeBox schemas for sign-in.
import { t } from "elysia";

export const LoginBody = t.Object({
  email: t.String({ minLength: 3, maxLength: 320, error: "email is required" }),
  password: t.String({ minLength: 1, maxLength: 1024, error: "password is required" }),
});
export type LoginBody = typeof LoginBody.static;
