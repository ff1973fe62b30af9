// What sending mail looks like to the rest of the code. A leaf, so Deps (which carries a mailer) and the SMTP
// transport (which reads Deps) do not import each other.
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
