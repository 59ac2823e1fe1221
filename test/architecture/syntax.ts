/**
 * What the architecture checks need to know about a source file, read from its syntax tree with the
 * TypeScript compiler (never with regular expressions, which a comment, a string, an alias or a
 * computed name would fool): the modules it imports, and where it reaches `process` or `console`.
 */
import ts from 'typescript';

export interface ModuleReference {
  /** The module named, when it is a constant; `undefined` for a computed one. */
  specifier: string | undefined;
  /** For a computed name, what it starts with (a template's head), to judge where it can lead. */
  prefix: string;
  /** The names bound from it (`default` and `*` for those forms); empty for a dynamic import. */
  names: string[];
  /** The local names it is bound to, in the order of `names`. */
  locals: string[];
  where: string;
}

export interface GlobalUse {
  /** `process` or `console`. */
  global: 'process' | 'console';
  /** The property reached (`stdout`, `exit`, `log`), or why none can be told. */
  member: string;
  /** What is done with that property: the next member read (`write`), or `(alias)` or `(value)`. */
  usedAs: string;
  where: string;
}

/** Members of `process` that print, read the terminal or end the program. */
export const PROCESS_OUTPUT = new Set(['stdout', 'stderr', 'stdin', '_rawDebug']);
export const PROCESS_EXIT = new Set(['exit', 'exitCode', 'reallyExit', 'abort']);

/** Every check reads the same few hundred files; each is parsed once. */
const parsed = new Map<string, ts.SourceFile>();

export function parse(path: string, text: string): ts.SourceFile {
  const known = parsed.get(path);
  if (known?.text === text) return known;
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  parsed.set(path, sf);
  return sf;
}

const whereOf = (node: ts.Node): string => {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return `${sf.fileName}:${line + 1}:${character + 1}`;
};

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/**
 * Static imports and re-exports, `import x = require()`, `import()`, `require()` and `import('…')` types;
 * and JSX, which the compiler turns into an import of `react/jsx-runtime` (`"jsx": "react-jsx"`).
 */
export function moduleReferences(sf: ts.SourceFile): ModuleReference[] {
  const found: ModuleReference[] = [];
  const constant = (node: ts.Expression, names: string[] = [], locals: string[] = []) =>
    found.push({ ...specifierOf(node), names, locals, where: whereOf(node) });
  walk(sf, (node) => {
    if (ts.isImportDeclaration(node)) constant(node.moduleSpecifier, ...importedNames(node.importClause));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier)
      constant(node.moduleSpecifier, ...exportedNames(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      constant(node.moduleReference.expression, ['*'], [node.name.text]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      constant(node.argument.literal as ts.Expression);
    else if (ts.isCallExpression(node) && isModuleCall(node)) {
      const [argument] = node.arguments;
      if (argument) constant(argument);
      else found.push({ specifier: undefined, prefix: '', names: [], locals: [], where: whereOf(node) });
    } else if (isJsx(node) && !ts.isJsxElement(node.parent) && !ts.isJsxFragment(node.parent))
      found.push({
        specifier: JSX_RUNTIME,
        prefix: JSX_RUNTIME,
        names: [],
        locals: [],
        where: whereOf(node),
      });
  });
  return found;
}

const JSX_RUNTIME = 'react/jsx-runtime';

const isJsx = (node: ts.Node): boolean =>
  ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node);

const isModuleCall = (call: ts.CallExpression): boolean =>
  call.expression.kind === ts.SyntaxKind.ImportKeyword ||
  (ts.isIdentifier(call.expression) && call.expression.text === 'require');

function specifierOf(node: ts.Expression): { specifier: string | undefined; prefix: string } {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { specifier: node.text, prefix: node.text };
  if (ts.isTemplateExpression(node)) return { specifier: undefined, prefix: node.head.text };
  return { specifier: undefined, prefix: '' };
}

function importedNames(clause: ts.ImportClause | undefined): [string[], string[]] {
  const names: string[] = [];
  const locals: string[] = [];
  if (clause?.name) {
    names.push('default');
    locals.push(clause.name.text);
  }
  const bindings = clause?.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) {
    names.push('*');
    locals.push(bindings.name.text);
  }
  if (bindings && ts.isNamedImports(bindings))
    for (const element of bindings.elements) {
      names.push((element.propertyName ?? element.name).text);
      locals.push(element.name.text);
    }
  return [names, locals];
}

function exportedNames(node: ts.ExportDeclaration): [string[], string[]] {
  const clause = node.exportClause;
  if (!clause) return [['*'], []];
  if (ts.isNamespaceExport(clause)) return [['*'], [clause.name.text]];
  return [
    clause.elements.map((e) => (e.propertyName ?? e.name).text),
    clause.elements.map((e) => e.name.text),
  ];
}

const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);

/**
 * Every place the file reaches `process` or `console`, by their own names, through `globalThis`
 * (`globalThis.process`, `global['console']`), or through a default or namespace import of the
 * `node:process` and `node:console` modules; each with the member it reaches. A use that hides the
 * member — the object kept in a variable, passed on, destructured with a rest, read with a computed
 * key — is reported with the member `(escapes)`, since any member could be reached through it.
 */
export function globalUses(sf: ts.SourceFile): GlobalUse[] {
  const aliases = new Map<string, GlobalUse['global']>([
    ['process', 'process'],
    ['console', 'console'],
  ]);
  const uses: GlobalUse[] = [];
  for (const ref of moduleReferences(sf)) {
    const global = moduleGlobal(ref.specifier);
    if (!global) continue;
    ref.names.forEach((name, i) => {
      const local = ref.locals[i];
      if (name === 'default' || name === '*') {
        if (local) aliases.set(local, global);
      } else uses.push({ global, member: name, usedAs: '(alias)', where: ref.where });
    });
  }
  walk(sf, (node) => {
    const global = referencedGlobal(node, aliases);
    if (global) uses.push(...membersReached(node, global));
  });
  return uses;
}

const moduleGlobal = (specifier: string | undefined): GlobalUse['global'] | undefined =>
  specifier === 'process' || specifier === 'node:process'
    ? 'process'
    : specifier === 'console' || specifier === 'node:console'
      ? 'console'
      : undefined;

/** Which global `node` stands for, if it is a reference to one (not a name declared or a member). */
function referencedGlobal(
  node: ts.Node,
  aliases: ReadonlyMap<string, GlobalUse['global']>,
): GlobalUse['global'] | undefined {
  if (ts.isIdentifier(node)) {
    const global = aliases.get(node.text);
    return global && isValueReference(node) ? global : undefined;
  }
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const object = unwrap(node.expression);
    if (!ts.isIdentifier(object) || !GLOBAL_OBJECTS.has(object.text) || !isValueReference(object))
      return undefined;
    const name = ts.isPropertyAccessExpression(node) ? node.name.text : literalKey(node.argumentExpression);
    return name === 'process' || name === 'console' ? name : undefined;
  }
  return undefined;
}

/** An identifier used as a value: not a declared name, a property's name, a key, or part of a type. */
function isValueReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if (ts.isQualifiedName(parent) && parent.right === id) return false;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isEnumMember(parent) ||
      ts.isBindingElement(parent) ||
      ts.isImportClause(parent) ||
      ts.isImportSpecifier(parent) ||
      ts.isNamespaceImport(parent) ||
      ts.isExportSpecifier(parent) ||
      ts.isImportEqualsDeclaration(parent) ||
      ts.isLabeledStatement(parent) ||
      ts.isJsxAttribute(parent)) &&
    (parent as { name?: ts.Node }).name === id
  )
    return false;
  if (ts.isBindingElement(parent) && parent.propertyName === id) return false;
  for (let node: ts.Node = id; node.parent; node = node.parent) if (ts.isTypeNode(node)) return false;
  return true;
}

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) ||
  ts.isNonNullExpression(node) ||
  ts.isAsExpression(node) ||
  ts.isSatisfiesExpression(node) ||
  ts.isTypeAssertionExpression(node)
    ? unwrap(node.expression)
    : node;

/** The node as it is used: past parentheses, `!`, `as` and `satisfies` around it. */
function outermost(node: ts.Node): ts.Node {
  let current = node;
  while (
    current.parent &&
    ts.isExpression(current.parent) &&
    unwrap(current.parent as ts.Expression) !== current.parent
  )
    current = current.parent;
  return current;
}

function literalKey(node: ts.Expression): string | undefined {
  const key = unwrap(node);
  return ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key) ? key.text : undefined;
}

/** What a reference to a global reaches: a member by name, the members destructured, or everything. */
function membersReached(node: ts.Node, global: GlobalUse['global']): GlobalUse[] {
  const use = outermost(node);
  const parent = use.parent;
  const at = (member: string, usedAs = '(alias)'): GlobalUse => ({
    global,
    member,
    usedAs,
    where: whereOf(node),
  });
  if (ts.isPropertyAccessExpression(parent) && parent.expression === use)
    return [at(parent.name.text, usedFor(parent))];
  if (ts.isElementAccessExpression(parent) && parent.expression === use)
    return [at(literalKey(parent.argumentExpression) ?? '(escapes)', usedFor(parent))];
  if (
    ts.isVariableDeclaration(parent) &&
    parent.initializer === use &&
    ts.isObjectBindingPattern(parent.name)
  )
    return parent.name.elements.map((element) => at(boundMember(element)));
  if (ts.isTypeOfExpression(parent)) return [];
  return [at('(escapes)')];
}

/** What an expression is used for: the member read from it, or `(alias)` when kept, `(value)` when handed on. */
function usedFor(node: ts.Expression): string {
  const use = outermost(node);
  const parent = use.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === use) return parent.name.text;
  if (ts.isElementAccessExpression(parent) && parent.expression === use)
    return literalKey(parent.argumentExpression) ?? '(alias)';
  if (ts.isVariableDeclaration(parent) || (ts.isBinaryExpression(parent) && parent.right === use))
    return '(alias)';
  return '(value)';
}

function boundMember(element: ts.BindingElement): string {
  if (element.dotDotDotToken) return '(escapes)';
  const key = element.propertyName ?? element.name;
  if (ts.isIdentifier(key) || ts.isStringLiteral(key)) return key.text;
  if (ts.isComputedPropertyName(key)) return literalKey(key.expression) ?? '(escapes)';
  return '(escapes)';
}

/** Writes straight to the terminal's descriptors: `writeSync(1, …)`, `write(2, …)`. */
export function descriptorWrites(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  walk(sf, (node) => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      const [first] = node.arguments;
      if (
        ts.isIdentifier(callee) &&
        /^(?:write|writeSync|writev|writevSync)$/.test(callee.text) &&
        first &&
        ts.isNumericLiteral(first) &&
        (first.text === '1' || first.text === '2')
      )
        found.push(whereOf(node));
    }
  });
  return found;
}
