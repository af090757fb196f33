import { projectConfig } from '../../../vitest.shared.js';

// The never-500 fuzz and the episode-start replay take 15–20 s alone and ~30 s on two loaded cores.
export default projectConfig({ testTimeout: 60_000 });
