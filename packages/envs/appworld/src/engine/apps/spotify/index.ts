// spotify: catalogue search, libraries, likes, playlists, following, downloads, the music player,
// premium and reviews. The APIs keep AppWorld's listing order (api_docs shows them in this order).
import type { ApiDef } from '../../types.js';
import { routed } from '../../routes.js';
import { accountApis } from '../shared/accounts.js';
import { paymentCardApis } from '../shared/payment-cards.js';
import { albumApis } from './albums.js';
import { artistApis } from './artists.js';
import { playerApis } from './player.js';
import { playlistApis } from './playlists.js';
import { isPremium, premiumApis } from './premium.js';
import { reviewApis } from './reviews.js';
import { SPOTIFY_ROUTES } from './routes.js';
import { recommendationApis, songApis } from './songs.js';
import { album, playlist, song } from './tables.js';

const apis: ApiDef[] = [
  ...accountApis('spotify', { verification: true, extras: { response: { is_premium: true }, view: (ctx, id) => ({ is_premium: isPremium(ctx, id) }) } }),
  ...songApis,
  ...albumApis,
  ...playlistApis,
  ...artistApis,
  ...recommendationApis,
  ...playerApis(),
  ...paymentCardApis('spotify', 'spotify_payment_cards', { showCvv: true }),
  ...premiumApis,
  ...reviewApis('song', 'Song', (ctx, id) => song(ctx, id).id),
  ...reviewApis('album', 'Album', (ctx, id) => album(ctx, id).id),
  ...reviewApis('playlist', 'Playlist', (ctx, id) => playlist(ctx, id, false).id),
];

export const spotifyApis: ApiDef[] = routed(apis, SPOTIFY_ROUTES);
