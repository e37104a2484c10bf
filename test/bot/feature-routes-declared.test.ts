import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * An update reaches a feature only on the routes it declares (src/bot/feature-routes.ts): a handler whose
 * trigger is missing from them never runs. Read from each routed feature's source: every command, callback
 * family, inline query and message filter its composer registers is among the routes it returns.
 */
const root = resolve(import.meta.dirname, "../..");

function routedFeatureFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && /\broutes: \{/.test(readFileSync(path, "utf8"))) files.push(path);
    }
  };
  walk(join(root, "src/features"));
  walk(join(root, "src/bot/handlers"));
  return files;
}

interface Declared {
  commands: Set<string>;
  callbackNames: string[];
  inlineQueries: boolean;
  messages: boolean;
}

interface Registered {
  commands: string[];
  callbackTriggers: ts.Expression[];
  inlineQueries: boolean;
  messages: boolean;
}

function strings(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node)) return [node.text];
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => strings(e));
  throw new Error(`not a string or a list of strings: ${node.getText()}`);
}

function read(file: string): { source: ts.SourceFile; declared: Declared; registered: Registered } {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const declared: Declared = { commands: new Set(), callbackNames: [], inlineQueries: false, messages: false };
  const registered: Registered = { commands: [], callbackTriggers: [], inlineQueries: false, messages: false };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && node.name.getText() === "routes" && ts.isObjectLiteralExpression(node.initializer)) {
      for (const p of node.initializer.properties) {
        if (!ts.isPropertyAssignment(p)) continue;
        const name = p.name.getText();
        if (name === "commands") for (const c of strings(p.initializer)) declared.commands.add(c);
        if (name === "callbacks" && ts.isArrayLiteralExpression(p.initializer)) declared.callbackNames.push(...p.initializer.elements.map((e) => e.getText()));
        if (name === "inlineQueries") declared.inlineQueries = p.initializer.kind === ts.SyntaxKind.TrueKeyword;
        if (name === "messages") declared.messages = p.initializer.kind === ts.SyntaxKind.TrueKeyword;
      }
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments.length > 0) {
      const method = node.expression.name.text;
      const first = node.arguments[0]!;
      if (method === "command") registered.commands.push(...strings(first));
      if (method === "callbackQuery") registered.callbackTriggers.push(...(ts.isArrayLiteralExpression(first) ? first.elements : [first]));
      if (method === "on" || method === "hears") {
        const queries = method === "hears" ? ["message"] : strings(first);
        if (queries.some((q) => q.startsWith("inline_query"))) registered.inlineQueries = true;
        if (queries.some((q) => /^(message|edited_message|channel_post|edited_channel_post|msg)?(:|$)/.test(q))) registered.messages = true;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { source, declared, registered };
}

/** The callback-data prefix a name of this file stands for: a `createCallbackData` made here, or a value imported. */
async function prefixOf(source: ts.SourceFile, name: string): Promise<string> {
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (d.name.getText() === name && init && ts.isCallExpression(init) && init.expression.getText() === "createCallbackData") {
          return strings(init.arguments[0]!)[0]!;
        }
      }
    }
    if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)) {
      if (!statement.importClause.namedBindings.elements.some((e) => e.name.text === name)) continue;
      const from = (statement.moduleSpecifier as ts.StringLiteral).text.replace(/\.js$/, ".ts");
      const module = (await import(pathToFileURL(resolve(dirname(source.fileName), from)).href)) as Record<string, unknown>;
      const value = module[name];
      if (typeof value === "string") return value.split(":")[0]!;
      if (typeof value === "object" && value !== null && "prefix" in value) return String(value.prefix);
    }
  }
  throw new Error(`${relative(root, source.fileName)}: cannot tell which callback data ${name} is`);
}

/** The family a `callbackQuery` trigger matches: `x.filter`, `menuAction(…)` (the menu's), or a packed constant. */
async function triggerPrefix(source: ts.SourceFile, trigger: ts.Expression): Promise<string> {
  if (ts.isPropertyAccessExpression(trigger) && trigger.name.text === "filter") return prefixOf(source, trigger.expression.getText());
  if (ts.isCallExpression(trigger) && trigger.expression.getText() === "menuAction") return prefixOf(source, "menuData");
  if (ts.isIdentifier(trigger)) return prefixOf(source, trigger.text);
  throw new Error(`${relative(root, source.fileName)}: cannot tell which callback data ${trigger.getText()} matches`);
}

describe("what each routed feature declares", () => {
  const files = routedFeatureFiles();

  it("finds the routed features", () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  it.each(files.map((f) => [relative(root, f), f]))("%s declares every trigger it registers", async (_name, file) => {
    const { source, declared, registered } = read(file);
    const declaredPrefixes = new Set(await Promise.all(declared.callbackNames.map((n) => prefixOf(source, n))));
    const missing: string[] = [];
    for (const command of registered.commands) if (!declared.commands.has(command) && !declared.messages) missing.push(`/${command}`);
    for (const trigger of registered.callbackTriggers) {
      const prefix = await triggerPrefix(source, trigger);
      if (!declaredPrefixes.has(prefix)) missing.push(`buttons ${prefix}:… (${trigger.getText()})`);
    }
    if (registered.inlineQueries && !declared.inlineQueries) missing.push("inline queries");
    if (registered.messages && !declared.messages) missing.push("messages");
    expect(missing).toEqual([]);
  });
});
