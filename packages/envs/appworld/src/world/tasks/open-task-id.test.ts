// A real AppWorld task id outside this catalogue opens this world for a stand-in supervisor: fixed by
// the id, and one whose history looks like AppWorld's supervisors' (pages of liked songs and of
// settled payment requests), so the paper's recorded calls on such tasks find rows to page through.
import { describe, expect, it } from 'vitest';
import { sharedTemplate } from '../../engine/world.js';
import { FEW_LIKES } from '../history.js';
import { openTaskId } from './catalog.js';

const supervisorOf = (id: string) => {
  const { session } = openTaskId(id);
  const email = (session.callTool('supervisor__show_profile', {}).body as { email: string }).email;
  session.close();
  return email;
};

describe('episodes for AppWorld task ids outside the catalogue', () => {
  it('open for a supervisor fixed by the id, with a full liked-song and payment-request history', () => {
    const world = sharedTemplate();
    const ids = Array.from({ length: 24 }, (_, i) => `${(0xa00000 + i * 7919).toString(16).slice(0, 7).padStart(7, '0')}_${(i % 3) + 1}`);
    const seen = new Set<string>();
    for (const id of ids) {
      const email = supervisorOf(id);
      expect(supervisorOf(id), id).toBe(email);
      seen.add(email);
      const [row] = world.query<{ liked: number; approved: number }>(
        `SELECT (SELECT count(*) FROM liked_songs l WHERE l.user_id = u.id) AS liked,
                (SELECT count(*) FROM venmo_payment_requests r WHERE r.sender_id = u.id AND r.approved_at IS NOT NULL) AS approved
         FROM users u WHERE u.email = ?`,
        email,
      );
      expect(row!.liked, `${id} ${email}`).toBeGreaterThan(FEW_LIKES);
      expect(row!.approved, `${id} ${email}`).toBeGreaterThanOrEqual(12);
    }
    expect(seen.size).toBeGreaterThanOrEqual(5);
  });
});
