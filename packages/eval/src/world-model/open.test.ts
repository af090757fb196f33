// openWorldModel: URLs → RemoteWorldModel (a fleet when comma-separated), a directory → LocalWorldModel.
import { describe, expect, it } from 'vitest';
import { isWorldModelUrl, openWorldModel } from './open.js';
import { RemoteWorldModel } from './remote.js';

describe('openWorldModel', () => {
  it('turns comma-separated URLs into one RemoteWorldModel over all of them', async () => {
    const wm = await openWorldModel('http://127.0.0.1:30000, https://wm.example:8443/v1', { remote: { protocol: 'proxy' } });
    expect(wm).toBeInstanceOf(RemoteWorldModel);
    expect((wm as RemoteWorldModel).state().map((e) => e.url)).toEqual(['http://127.0.0.1:30000', 'https://wm.example:8443']);
    expect((wm as RemoteWorldModel).protocol).toBe('proxy');
  });

  it('loads anything else as a checkpoint directory, and refuses mixtures and empty values', async () => {
    await expect(openWorldModel('/nonexistent/run/model')).rejects.toThrow('/nonexistent/run/model');
    await expect(openWorldModel('http://a:1,runs/x')).rejects.toThrow(/mixes URLs and paths/);
    await expect(openWorldModel(' , ')).rejects.toThrow(/empty --world-model/);
    expect(isWorldModelUrl('HTTP://x')).toBe(true);
    expect(isWorldModelUrl('runs/http')).toBe(false);
  });
});
