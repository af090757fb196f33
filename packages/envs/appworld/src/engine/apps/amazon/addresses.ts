// amazon's addresses: list, add, update, delete (names unique per person).
import { declarer, me, ok, optNum, optStr, str } from '../../define.js';
import { opt, req } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { addresses, ownAddress } from './tables.js';
import { ADDRESS_RESPONSE, addressView, MESSAGE, withId } from './views.js';
import { NON_EMPTY } from './params.js';

const def = declarer('amazon');

export const addressApis: ApiDef[] = [
  def('show_addresses', { description: 'Get a list of your addresses.', response: [ADDRESS_RESPONSE] }, (ctx) => addresses.all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx)).map(addressView)),
  def(
    'add_address',
    {
      description: 'Add a new address.',
      response: withId('address_id'),
      params: [
        req.str('name', NON_EMPTY),
        req.str('street_address', NON_EMPTY),
        req.str('city', NON_EMPTY),
        req.str('state', NON_EMPTY),
        req.str('country', NON_EMPTY),
        req.int('zip_code', {
          constraints: [
            { kind: 'min', value: 10000 },
            { kind: 'exclusiveMax', value: 100000 },
          ],
        }),
      ],
    },
    (ctx, a) => {
      if (ctx.db.prepare('SELECT 1 FROM amazon_addresses WHERE user_id = ? AND lower(name) = lower(?)').get(me(ctx), str(a, 'name')))
        throw new ApiError(422, `An address named "${str(a, 'name')}" already exists.`);
      const r = ctx.db
        .prepare('INSERT INTO amazon_addresses (user_id, name, street_address, city, state, country, zip_code) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(me(ctx), str(a, 'name'), str(a, 'street_address'), str(a, 'city'), str(a, 'state'), str(a, 'country'), Number(a.zip_code));
      return ok('Address added.', { address_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_address',
    {
      method: 'PATCH',
      description: 'Update address information.',
      response: MESSAGE,
      params: [
        req.int('address_id'),
        opt.str('name', NON_EMPTY),
        opt.str('street_address', NON_EMPTY),
        opt.str('city', NON_EMPTY),
        opt.str('state', NON_EMPTY),
        opt.str('country', NON_EMPTY),
        opt.int('zip_code', {
          constraints: [
            { kind: 'min', value: 10000 },
            { kind: 'max', value: 99999 },
          ],
        }),
      ],
    },
    (ctx, a) => {
      const cur = ownAddress(ctx, Number(a.address_id));
      const next = {
        name: optStr(a, 'name') ?? cur.name,
        street_address: optStr(a, 'street_address') ?? cur.street_address,
        city: optStr(a, 'city') ?? cur.city,
        state: optStr(a, 'state') ?? cur.state,
        country: optStr(a, 'country') ?? cur.country,
        zip_code: optNum(a, 'zip_code') ?? cur.zip_code,
      };
      ctx.db
        .prepare('UPDATE amazon_addresses SET name = ?, street_address = ?, city = ?, state = ?, country = ?, zip_code = ? WHERE id = ?')
        .run(next.name, next.street_address, next.city, next.state, next.country, next.zip_code, cur.id);
      return ok('Address updated.');
    },
  ),
  def('delete_address', { method: 'DELETE', description: 'Delete an address.', params: [req.int('address_id')], response: MESSAGE }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM amazon_addresses WHERE id = ?').run(ownAddress(ctx, Number(a.address_id)).id);
    return ok('Address deleted.');
  }),
];
