// A form's submit state in one hook: busy while the request runs, the API's refusal at its fields, or one sentence.
import { useState } from "preact/hooks";
import { describeError, fieldErrors } from "../errors";

export function useSubmit() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState("");
  const [busy, setBusy] = useState(false);
  /** Runs `work`; `explain` may word a refusal better than the API's body does for this form (e.g. a 401 at sign-in). */
  const run = async (work: () => Promise<void>, explain?: (err: unknown) => string | undefined) => {
    setBusy(true);
    setErrors({});
    setFailure("");
    try {
      await work();
    } catch (err) {
      const own = explain?.(err);
      const fields = own === undefined ? fieldErrors(err) : {};
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(own ?? describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, failure, busy, run };
}
