import { api, unwrap } from '../../../lib/api/client';

export interface Credentials {
  email: string;
  password: string;
}

export const logIn = (body: Credentials) => unwrap(api.POST('/api/v1/auth/login', { body }));
