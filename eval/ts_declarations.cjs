// The declarations of JavaScript/TypeScript files as the TypeScript compiler's own parser
// reads them: an independent oracle for eval/compare_ctags.py --typescript.
//   node eval/ts_declarations.cjs TYPESCRIPT_MODULE_DIR ROOT < paths   (one JSON line each)
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(process.argv[2]);
const root = process.argv[3];

const KINDS = {
  FunctionDeclaration: "callable", MethodDeclaration: "callable", MethodSignature: "callable",
  Constructor: "callable", GetAccessor: "callable", SetAccessor: "callable",
  ClassDeclaration: "type", ClassExpression: "type", InterfaceDeclaration: "type",
  EnumDeclaration: "type", TypeAliasDeclaration: "type", ModuleDeclaration: "namespace",
};
const FUNCTION_VALUES = new Set([ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression]);

function scriptKind(file) {
  if (file.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (file.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

const input = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const rel of input) {
  const text = fs.readFileSync(path.join(root, rel), "utf8");
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, scriptKind(rel));
  const out = (nameNode, group) => {
    const line = source.getLineAndCharacterOfPosition(nameNode.getStart(source)).line + 1;
    process.stdout.write(JSON.stringify({ path: rel, name: nameNode.getText(source), line, group }) + "\n");
  };
  const visit = (node) => {
    const kind = ts.SyntaxKind[node.kind];
    const group = KINDS[kind];
    if (group && node.name) {
      if (kind === "ModuleDeclaration" && node.name.kind === ts.SyntaxKind.StringLiteral) {
        // `declare module "x"`: not a namespace of the project
      } else out(node.name, group);
    } else if (kind === "Constructor") {
      out(node.getFirstToken(source), group);
    } else if ((kind === "VariableDeclaration" || kind === "PropertyAssignment") &&
               node.initializer && FUNCTION_VALUES.has(node.initializer.kind) &&
               (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
      out(node.name, "callable");
    } else if (kind === "PropertyDeclaration" && node.initializer &&
               FUNCTION_VALUES.has(node.initializer.kind) &&
               (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) {
      out(node.name, "callable");  // a class field whose value is a function
    } else if (kind === "BinaryExpression" && node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
               FUNCTION_VALUES.has(node.right.kind)) {
      const left = node.left;
      if (ts.isIdentifier(left)) out(left, "callable");
      else if (ts.isPropertyAccessExpression(left)) out(left.name, "callable");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
