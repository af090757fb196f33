// Module-resolution hook for bench workers: @diffworld/* resolve to their TypeScript sources
// through the "@diffworld/source" export condition, as tsconfig and vitest do.
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes('@diffworld/source') ? context.conditions : ['@diffworld/source', ...context.conditions];
  return nextResolve(specifier, { ...context, conditions });
}
