// The reference's always-on SciWorld responder: deterministic replies (teleport, wait, inventory,
// impossible focus) computed from the conversation alone; everything else defers to the world model.
import type { ChatMessage, ResponderContext } from '@diffworld/env-core';

/** Inventory as the reference scheduler tracks it from (action, observation) pairs. */
export function trackInventory(history: ChatMessage[]): string[] {
  const inv: string[] = [];
  for (let i = 0; i + 1 < history.length; i++) {
    const a = history[i]!;
    const o = history[i + 1]!;
    if (a.role !== 'assistant' || o.role !== 'user') continue;
    const action = a.content.trim().toLowerCase();
    const obs = o.content.toLowerCase();
    const pick = /^(?:pick up|get|take) (.+)$/.exec(action);
    if (pick && obs.includes('you move the') && obs.includes('inventory') && !inv.includes(pick[1]!)) inv.push(pick[1]!);
    const put = /^(?:put|move) (.+?) (?:in|on|into|to) .+$/.exec(action);
    if (put && obs.includes('you move the') && !obs.includes('inventory')) {
      const k = inv.indexOf(put[1]!);
      if (k >= 0) inv.splice(k, 1);
    }
  }
  return inv;
}

export function sciworldLocalResponder(ctx: ResponderContext): string | undefined {
  const action = ctx.action.trim().toLowerCase();
  const tele = /^teleport (?:to |into )?(.+)$/.exec(action);
  if (tele) return `You teleport to the ${tele[1]}.`;
  if (action === 'wait' || action === 'wait1') return '(1 tick passes)';
  if (action === 'inventory') {
    const inv = trackInventory(ctx.history).sort();
    return inv.length ? `In your inventory, you see: ${inv.join(', ')}` : 'Your inventory is empty.';
  }
  const focus = /^focus (?:on )?(.+)$/.exec(action);
  if (focus) {
    const x = focus[1]!;
    if (x === 'agent' || (!ctx.system.toLowerCase().includes(x) && !trackInventory(ctx.history).includes(x))) return 'No known action matches that input.';
  }
  return undefined;
}
