// The packages a built JavaScript module imports: bare specifiers of static imports, re-exports and
// dynamic imports with a literal argument. Type-only imports are gone from the JavaScript already.
import { builtinModules } from 'node:module';

// tsc starts every import and re-export statement on its own line, so a comment that mentions one does not count.
const SPECIFIER = /^\s*(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The package names (`zod`, `@huggingface/hub`) that a module's source imports; node builtins and relative paths left out. */
export function importedPackages(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec === undefined || spec.startsWith('.') || spec.startsWith('/') || isBuiltin(spec)) continue;
    names.add(packageName(spec));
  }
  return [...names].sort();
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
}
