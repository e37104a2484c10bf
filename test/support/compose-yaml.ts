/**
 * Reads the subset of YAML that docker-compose.yml is written in (no YAML
 * library is a dependency): block mappings, block lists of scalars, flow
 * lists written as JSON, quoted or plain scalars, `&anchor` on a mapping and
 * `<<: *anchor` merges. Anything else is refused, so the file stays in it.
 */
export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };
type YamlMap = Record<string, YamlValue>;

interface Line {
  indent: number;
  text: string;
  number: number;
}

function scalar(text: string, line: Line): YamlValue {
  if (text.startsWith("[")) return JSON.parse(text) as YamlValue[];
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (/^[{'|>&*!%@`]/.test(text)) throw new Error(`line ${line.number}: outside the supported YAML subset: ${text}`);
  return text;
}

export function parseComposeYaml(source: string): YamlMap {
  const lines: Line[] = source
    .split("\n")
    .map((raw, i) => ({ raw, number: i + 1 }))
    .filter(({ raw }) => raw.trim() !== "" && !raw.trim().startsWith("#"))
    .map(({ raw, number }) => {
      if (raw.includes("\t")) throw new Error(`line ${number}: tab in indentation`);
      return { indent: raw.length - raw.trimStart().length, text: raw.trim(), number };
    });
  const anchors = new Map<string, YamlMap>();
  let at = 0;

  function block(indent: number): YamlValue {
    const first = lines[at];
    if (first?.text.startsWith("- ")) {
      const list: YamlValue[] = [];
      while (lines[at]?.indent === indent && lines[at]!.text.startsWith("- ")) {
        list.push(scalar(lines[at]!.text.slice(2).trim(), lines[at]!));
        at++;
      }
      return list;
    }
    const map: YamlMap = {};
    while (at < lines.length && lines[at]!.indent === indent) {
      const line = lines[at]!;
      const match = /^([A-Za-z0-9_.<-]+):(?:\s+(.*))?$/.exec(line.text);
      if (!match) throw new Error(`line ${line.number}: expected "key: value": ${line.text}`);
      const [, key, rest = ""] = match;
      at++;
      if (key === "<<") {
        const anchored = anchors.get(rest.replace(/^\*/, ""));
        if (!rest.startsWith("*") || !anchored) throw new Error(`line ${line.number}: unknown anchor ${rest}`);
        for (const [k, v] of Object.entries(anchored)) if (!(k in map)) map[k] = v;
        continue;
      }
      if (rest === "" || rest.startsWith("&")) {
        const next = lines[at];
        const child = next && next.indent > indent ? block(next.indent) : {};
        if (rest.startsWith("&")) {
          if (Array.isArray(child) || typeof child === "string") throw new Error(`line ${line.number}: an anchor must be on a mapping`);
          anchors.set(rest.slice(1), child);
        }
        map[key!] = child;
      } else {
        map[key!] = scalar(rest, line);
      }
    }
    if (at < lines.length && lines[at]!.indent > indent) throw new Error(`line ${lines[at]!.number}: unexpected indentation`);
    return map;
  }

  const root = block(0);
  if (at < lines.length) throw new Error(`line ${lines[at]!.number}: unexpected indentation`);
  return root as YamlMap;
}
