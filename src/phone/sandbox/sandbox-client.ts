/** The persona picker's routes (design.md §4, sandbox only), through the page's phone API. */
import type { RequestStatus } from '../../protocol/wire.ts';
import type { PersonaSummary, PhoneCompleteBody } from '../../protocol/sandbox.ts';
import type { ApiResult, PhoneApi } from '../phone-client.ts';

export interface SandboxApi {
  listPersonas(): Promise<ApiResult<PersonaSummary[]>>;
  complete(requestId: string, body: PhoneCompleteBody): Promise<ApiResult<{ status: RequestStatus }>>;
}

/** @example const personas = await createSandboxApi(createPhoneApi()).listPersonas(); */
export function createSandboxApi(api: PhoneApi): SandboxApi {
  return {
    listPersonas: () => api.send<PersonaSummary[]>('/api/m/personas'),
    complete: (requestId, body) =>
      api.send<{ status: RequestStatus }>(`/api/m/requests/${encodeURIComponent(requestId)}/complete`, body),
  };
}
