import { Diagnostic } from '../diagnostics/diagnostic';
import { M } from '../diagnostics/ir-messages';
import type { MLIRContext } from '../ir/context';
import { FileLineColLoc } from '../ir/location';
import { OpPassManager, PassManager } from './pass-manager';
import type { PassRegistry } from './pass-registry';

/** The buffer name MLIR uses for pipeline diagnostics. */
const BUFFER = 'MLIR Textual PassPipeline Parser';

class PipelineSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

interface Element {
  name: string;
  offset: number;
  nested?: Element[];
  options?: { key: string; value: string | undefined; offset: number }[];
}

function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_.\-]/.test(c);
}

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  name(): string {
    const start = this.pos;
    while (this.pos < this.text.length && isNameChar(this.text[this.pos]!)) this.pos++;
    if (start === this.pos) throw new PipelineSyntaxError(M.pipelineSyntax('expected pass or pipeline name'), start);
    return this.text.slice(start, this.pos);
  }
  /** An option value: up to whitespace or `}` at brace depth 0; `{...}` and quotes are kept whole. */
  value(): string {
    const start = this.pos;
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === '"' || c === "'") {
        const end = this.text.indexOf(c, this.pos + 1);
        if (end < 0) throw new PipelineSyntaxError(M.pipelineSyntax('unterminated quoted option value'), this.pos);
        this.pos = end + 1;
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (/\s/.test(c) && depth === 0) break;
      this.pos++;
    }
    let v = this.text.slice(start, this.pos);
    if ((v.startsWith('{') && v.endsWith('}')) || (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0])) {
      v = v.slice(1, -1);
    }
    return v;
  }
}

function parseElements(s: Scanner, closing: string): Element[] {
  const out: Element[] = [];
  s.skipSpace();
  if (s.peek() === closing || (closing === '' && s.pos >= s.text.length)) return out;
  for (;;) {
    s.skipSpace();
    const offset = s.pos;
    const name = s.name();
    const el: Element = { name, offset };
    s.skipSpace();
    if (s.peek() === '(') {
      s.pos++;
      el.nested = parseElements(s, ')');
      s.skipSpace();
      if (s.peek() !== ')') throw new PipelineSyntaxError(M.pipelineSyntax("expected ')'"), s.pos);
      s.pos++;
    } else if (s.peek() === '{') {
      s.pos++;
      el.options = [];
      for (;;) {
        s.skipSpace();
        if (s.peek() === '}') {
          s.pos++;
          break;
        }
        if (s.pos >= s.text.length) throw new PipelineSyntaxError(M.pipelineSyntax("expected '}'"), s.pos);
        const kOff = s.pos;
        const key = s.name();
        let value: string | undefined;
        if (s.peek() === '=') {
          s.pos++;
          value = s.value();
        }
        el.options.push({ key, value, offset: kOff });
      }
    }
    out.push(el);
    s.skipSpace();
    if (s.peek() === ',') {
      s.pos++;
      continue;
    }
    if (closing === '' ? s.pos >= s.text.length : s.peek() === closing) return out;
    throw new PipelineSyntaxError(M.pipelineSyntax(closing === '' ? "expected ',' or end of pipeline" : `expected ',' or '${closing}'`), s.pos);
  }
}

/**
 * Adds the elements to `pm`, resolving passes and pipeline aliases through `registry`.
 * Returns an error (message, offset) or null.
 */
function build(pm: OpPassManager, elements: Element[], registry: PassRegistry, depth: number): PipelineSyntaxError | null {
  for (const el of elements) {
    if (el.nested) {
      const nested = pm.nest(el.name);
      const err = build(nested, el.nested, registry, depth);
      if (err) return err;
      continue;
    }
    const reg = registry.lookupPass(el.name);
    if (!reg) {
      const alias = registry.lookupPipeline(el.name);
      if (alias && depth < 16) {
        let inner: Element[];
        try {
          inner = parseElements(new Scanner(alias.pipeline), '');
        } catch (e) {
          if (e instanceof PipelineSyntaxError) return new PipelineSyntaxError(e.message, el.offset);
          throw e;
        }
        const err = build(pm, inner, registry, depth + 1);
        if (err) return new PipelineSyntaxError(err.message, el.offset);
        continue;
      }
      return new PipelineSyntaxError(M.unknownPass(el.name), el.offset);
    }
    const pass = reg.create();
    for (const o of el.options ?? []) {
      const message = pass.setOptionFromString(o.key, o.value);
      if (message !== null) return new PipelineSyntaxError(message, o.offset);
    }
    if (pass.opName !== null && pm.anchor !== 'any' && pass.opName !== pm.anchor) {
      return new PipelineSyntaxError(
        `Can't add pass '${pass.name}' restricted to '${pass.opName}' on a PassManager intended to run on '${pm.anchor}', did you intend to nest?`,
        el.offset,
      );
    }
    pm.addPass(pass);
  }
  return null;
}

/**
 * Parses a textual pipeline such as `builtin.module(func.func(cse,p{opt=1}))` into a
 * {@link PassManager} anchored on the outermost op name. Unknown passes, bad options and
 * syntax errors are emitted as diagnostics (at `MLIR Textual PassPipeline Parser:1:<col>`)
 * and give `undefined`; nothing throws.
 */
export function parsePassPipeline(context: MLIRContext, text: string, registry: PassRegistry): PassManager | undefined {
  const fail = (e: PipelineSyntaxError): undefined => {
    context.diagnostics.emit(new Diagnostic('error', FileLineColLoc.get(context, BUFFER, 1, e.offset + 1), e.message));
    return undefined;
  };
  let elements: Element[];
  try {
    elements = parseElements(new Scanner(text), '');
  } catch (e) {
    if (e instanceof PipelineSyntaxError) return fail(e);
    throw e;
  }
  if (elements.length !== 1 || !elements[0]!.nested) {
    return fail(
      new PipelineSyntaxError(
        M.pipelineSyntax("the pipeline must be anchored on an operation, e.g. 'builtin.module(...)' or 'any(...)'"),
        0,
      ),
    );
  }
  const top = elements[0]!;
  const pm = new PassManager(context, top.name);
  const err = build(pm, top.nested!, registry, 0);
  return err ? fail(err) : pm;
}

/**
 * Parses pipeline elements (`cse,func.func(p)`) and appends them to `pm` (the anchor is
 * `pm`'s). Errors are emitted as diagnostics; returns success.
 */
export function addPipelineElements(context: MLIRContext, pm: OpPassManager, text: string, registry: PassRegistry): boolean {
  let elements: Element[];
  let err: PipelineSyntaxError | null;
  try {
    elements = parseElements(new Scanner(text), '');
    err = build(pm, elements, registry, 0);
  } catch (e) {
    if (!(e instanceof PipelineSyntaxError)) throw e;
    err = e;
  }
  if (err) {
    context.diagnostics.emit(new Diagnostic('error', FileLineColLoc.get(context, BUFFER, 1, err.offset + 1), err.message));
    return false;
  }
  return true;
}
