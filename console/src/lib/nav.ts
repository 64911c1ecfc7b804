import {
  IconBuildingBank,
  IconBuildingStore,
  IconHistory,
  IconCash,
  IconCashRegister,
  IconChartBar,
  IconChartLine,
  IconCoins,
  IconCreditCard,
  IconHome,
  IconKey,
  IconReceipt,
  IconUsers,
  IconUserShield,
  IconWebhook,
} from '@tabler/icons-react';
import type { Me } from './api/types';

export interface NavItem {
  to: string;
  label: string;
  icon: typeof IconHome;
  visible: (me: Me) => boolean;
}

const admins = (me: Me) => me.role !== 'operator';

/** The pages of each role, in the order a shift uses them. */
export const NAV: NavItem[] = [
  { to: '/', label: 'Home', icon: IconHome, visible: () => true },
  { to: '/orders', label: 'Orders', icon: IconReceipt, visible: (me) => me.permissions.includes('orders:read') },
  // Every role: admins see their branch's exchanges, an operator its own (the API scopes both).
  { to: '/cash', label: 'Cash', icon: IconCashRegister, visible: () => true },
  // The API scopes the figures: an operator sees its exchanges', an admin its branch's.
  { to: '/reports', label: 'Reports', icon: IconChartBar, visible: (me) => me.permissions.includes('orders:read') },
  { to: '/offers', label: 'Offers and rates', icon: IconCoins, visible: admins },
  { to: '/rate-sources', label: 'Rate sources', icon: IconChartLine, visible: admins },
  { to: '/exchanges', label: 'Exchanges', icon: IconBuildingStore, visible: admins },
  { to: '/payment-methods', label: 'Payment methods', icon: IconCreditCard, visible: admins },
  { to: '/clients', label: 'Clients', icon: IconUsers, visible: (me) => me.permissions.includes('clients:read') },
  { to: '/staff', label: 'Staff', icon: IconUserShield, visible: admins },
  { to: '/currencies', label: 'Currencies', icon: IconCash, visible: (me) => me.role === 'superadmin' },
  { to: '/branches', label: 'Branches', icon: IconBuildingBank, visible: (me) => me.role === 'superadmin' },
  { to: '/api-keys', label: 'API keys', icon: IconKey, visible: () => true },
  {
    to: '/webhooks',
    label: 'Webhooks',
    icon: IconWebhook,
    visible: (me) => me.permissions.includes('webhooks:manage'),
  },
  { to: '/audit', label: 'Audit log', icon: IconHistory, visible: admins },
];
