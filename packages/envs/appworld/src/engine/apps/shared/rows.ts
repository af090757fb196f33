// Row types of the tables several apps share or copy: the people (`users`), the payment-card tables
// (`payment_cards`, `<app>_payment_cards`: one column set) and the notification tables
// (`<app>_notifications`). Declared once here; each app's own tables live in its folder.
import { table, type Table } from '../../tables.js';

export interface UserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  birthday: string;
  sex: string;
}

/** An account of a user in one app (`accounts`). */
export interface AccountRow {
  id: number;
  app: string;
  user_id: number;
  password: string;
  verified: number;
  created_at: string;
}

export interface CardRow {
  id: number;
  user_id: number;
  card_name: string;
  owner_name: string;
  card_number: string;
  expiry_year: number;
  expiry_month: number;
  cvv_number: string;
}

export interface NotificationRow {
  id: number;
  user_id: number;
  type: string;
  title: string;
  message: string;
  read: number;
  created_at: string;
  /** A JSON object (the notification's ids). */
  data: string;
}

export const users: Table<UserRow> = table<UserRow>('users');

/** The payment-card table of an app (`payment_cards` for the supervisor's wallet, `<app>_payment_cards`). */
export const cardTable = (name: string): Table<CardRow> => table<CardRow>(name);

/** The notification table of an app, `<app>_notifications`. */
export const notificationTable = (app: string): Table<NotificationRow> => table<NotificationRow>(`${app}_notifications`);

/** A paid subscription bought with a payment card (Amazon Prime, Spotify Premium: the same columns). */
export interface PaidSubscriptionRow {
  id: number;
  user_id: number;
  payment_card_id: number;
  payment_card_digits: string;
  start_date: string;
  end_date: string;
  paid_amount: number;
}
