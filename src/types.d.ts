// Ambient module types for files Bun imports as text (migrations) or as embedded files.
declare module "*.sql" {
  const text: string;
  export default text;
}
