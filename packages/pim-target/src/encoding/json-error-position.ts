/**
 * Finds where JSON text stops being valid, for error messages (Node's `JSON.parse` messages
 * do not always carry a position). An iterative scanner with an explicit stack: no recursion,
 * linear time, so malformed or deeply nested input cannot overflow or hang it.
 */

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Returns the character offset of the first syntax error in `text`, or `undefined` when the
 * text is valid JSON.
 */
export function findJsonErrorOffset(text: string): number | undefined {
  const n = text.length;
  let i = 0;
  const stack: number[] = []; // 0x5b '[' or 0x7b '{'
  // What the scanner expects next.
  type State = 'value' | 'valueOrClose' | 'commaOrClose' | 'key' | 'keyOrClose' | 'colon' | 'end';
  let state = 'value' as State;
  const skipWs = (): void => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  const scanString = (): boolean => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return false;
      } else i++;
    }
    return false;
  };
  const afterValue = (): void => {
    state = stack.length === 0 ? 'end' : 'commaOrClose';
  };
  for (;;) {
    skipWs();
    if (i >= n) return state === 'end' ? undefined : i;
    const c = text.charCodeAt(i);
    switch (state) {
      case 'end':
        return i;
      case 'colon':
        if (c !== 0x3a) return i;
        i++;
        state = 'value';
        continue;
      case 'key':
      case 'keyOrClose':
        if (c === 0x7d && state === 'keyOrClose') {
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        if (c !== 0x22 || !scanString()) return i;
        state = 'colon';
        continue;
      case 'commaOrClose': {
        const top = stack[stack.length - 1]!;
        if (c === 0x2c) {
          i++;
          state = top === 0x7b ? 'key' : 'value';
          continue;
        }
        if ((c === 0x5d && top === 0x5b) || (c === 0x7d && top === 0x7b)) {
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        return i;
      }
      case 'value':
      case 'valueOrClose': {
        if (c === 0x5d && state === 'valueOrClose') {
          stack.pop();
          i++;
          afterValue();
          continue;
        }
        if (c === 0x5b) {
          stack.push(c);
          i++;
          state = 'valueOrClose';
          continue;
        }
        if (c === 0x7b) {
          stack.push(c);
          i++;
          state = 'keyOrClose';
          continue;
        }
        if (c === 0x22) {
          if (!scanString()) return i;
          afterValue();
          continue;
        }
        const rest = text.slice(i, i + 5);
        const literal = ['true', 'false', 'null'].find((w) => rest.startsWith(w));
        if (literal) {
          i += literal.length;
          afterValue();
          continue;
        }
        const number = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
        if (!number || number[0].length === 0) return i;
        i += number[0].length;
        afterValue();
        continue;
      }
    }
  }
}
