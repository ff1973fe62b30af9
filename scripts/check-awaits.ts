// Static check run by `npm run typecheck`: no promise is left floating in server code, so no store call escapes its await.
//
// On SQLite a store call runs its statement before it returns, so a forgotten `await` goes unnoticed there; on
// PostgreSQL the statement runs later, outside the transaction it was written in, or fails with nobody listening.
// TypeScript already refuses a promise used as a condition (TS2801); this adds the two cases it lets through:
//   1. a call whose value is a promise, used as a statement (`repo.archive(id);`), and
//   2. an async function handed to a caller that ignores what it returns (`rows.forEach(async (r) => …)`).
// A deliberate fire-and-forget says so with `void` (and handles its own rejection).
import ts from "typescript";
import { resolve, relative } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const configFile = ts.readConfigFile(resolve(ROOT, "tsconfig.json"), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();

function isPromiseLike(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some(isPromiseLike);
  const then = type.getProperty("then");
  if (!then) return false;
  const thenType = checker.getTypeOfSymbol(then);
  return thenType.getCallSignatures().length > 0;
}

function returnsVoidOnly(param: ts.Type): boolean {
  const sigs = param.getNonNullableType().getCallSignatures();
  if (sigs.length === 0) return false;
  return sigs.every((s) => {
    const r = checker.getReturnTypeOfSignature(s);
    return (r.flags & ts.TypeFlags.Void) !== 0;
  });
}

/** `p.catch(f)` and `p.then(f, g)` as statements: the rejection is handled where the promise is let go. */
function handlesRejection(call: ts.CallExpression | ts.NewExpression): boolean {
  if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) return false;
  const name = call.expression.name.text;
  return name === "catch" || (name === "then" && call.arguments.length === 2);
}

const findings: string[] = [];
function report(node: ts.Node, what: string): void {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart());
  findings.push(`${relative(ROOT, sf.fileName)}:${line + 1}:${character + 1} ${what}: ${node.getText().split("\n")[0].slice(0, 100)}`);
}

function visit(node: ts.Node): void {
  if (ts.isExpressionStatement(node)) {
    const e = node.expression;
    const call = ts.isCallExpression(e) || ts.isNewExpression(e) ? e : null;
    if (call && !handlesRejection(call) && isPromiseLike(checker.getTypeAtLocation(call))) report(node, "floating promise (await it, or `void` it on purpose)");
  }
  if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
    const parent = node.parent;
    if (ts.isCallExpression(parent) && parent.arguments.includes(node)) {
      const contextual = checker.getContextualType(node);
      if (contextual && returnsVoidOnly(contextual)) report(node, "async function passed where its promise is ignored");
    }
  }
  ts.forEachChild(node, visit);
}

for (const sf of program.getSourceFiles()) {
  const rel = relative(ROOT, sf.fileName);
  // Server code (the web app has its own tsconfig and no store); tests and benchmarks may let a promise run on purpose.
  if (sf.isDeclarationFile || !rel.startsWith("src/") || rel.startsWith("src/web/")) continue;
  visit(sf);
}

if (findings.length > 0) {
  console.error(`check-awaits: ${findings.length} promise(s) left floating:\n${findings.join("\n")}`);
  process.exit(1);
}
console.log("check-awaits: no floating promises");
