// A small json_repair stand-in: policy outputs are often almost-JSON (Python literals, single
// quotes, trailing commas, missing closers). Returns undefined when no repair yields a value.

export function lenientJsonParse(text: string): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  try {
    return JSON.parse(t);
  } catch {
    /* try repairs below */
  }
  let s = pythonToJson(t).replace(/,\s*([\]}])/g, '$1');
  s = closeBrackets(s);
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** Python literals and single-quoted strings → JSON, leaving double-quoted strings alone. */
function pythonToJson(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let body = '';
      while (j < s.length && s[j] !== ch) {
        if (s[j] === '\\' && j + 1 < s.length) {
          body += s[j]! + s[j + 1]!;
          j += 2;
          continue;
        }
        body += ch === "'" && s[j] === '"' ? '\\"' : s[j]!;
        j++;
      }
      out += '"' + (ch === "'" ? body.replace(/\\'/g, "'") : body) + '"';
      i = j;
      continue;
    }
    const rest = s.slice(i);
    const lit = /^(True|False|None)\b/.exec(rest);
    if (lit && !/[\w]/.test(s[i - 1] ?? '')) {
      out += lit[1] === 'True' ? 'true' : lit[1] === 'False' ? 'false' : 'null';
      i += lit[1]!.length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Appends the closers of unclosed brackets and strings (truncated generations). */
function closeBrackets(s: string): string {
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if ((ch === '}' || ch === ']') && stack[stack.length - 1] === ch) stack.pop();
  }
  return s + (inString ? '"' : '') + stack.reverse().join('');
}
