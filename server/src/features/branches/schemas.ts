import { Type } from 'typebox';
import { DateTime, listEnvelope } from '../../http/schemas.js';

export const Branch = Type.Object({ id: Type.Integer(), name: Type.String(), createdAt: DateTime, updatedAt: DateTime });
export const BranchList = listEnvelope(Branch);
export const CreateBranchRequest = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) }, { additionalProperties: false });
