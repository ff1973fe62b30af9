// The error type for what a person can fix; no imports, so the config, the database, the pid file and the model worker can throw it.

/**
 * A failure a person can act on, said in one sentence: a bad flag, an unusable configuration, a busy data dir, a
 * database from a newer build, a missing model folder, an account rule. The CLI prints the message as one line and
 * exits 2 (src/cli/failure.ts); an HTTP route sharing the service turns it into its own AppError (`field` names the
 * input the sentence is about, `formMessage` is the wording for a form when it differs from the operator's).
 */
export class OperatorError extends Error {
  readonly field?: string;
  readonly formMessage?: string;
  constructor(message: string, about: { field?: string; formMessage?: string } = {}) {
    super(message);
    this.field = about.field;
    this.formMessage = about.formMessage;
  }
}
