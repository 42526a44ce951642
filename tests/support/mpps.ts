import { dimse } from '../../server/dicom/dimse';

/** Modality Performed Procedure Step SOP Class. */
export const MPPS = '1.2.840.10008.3.1.2.3.3';

/**
 * One MPPS N-CREATE or N-SET in its own association through dcmjs-dimse's client, as the modality `callingAe` to the
 * listener (AE RADWS) on `port`; resolves with the DIMSE status (-1 when no response came), rejects on a network error.
 */
export function sendMpps(port: number, callingAe: string, op: 'create' | 'set', uid: string, attrs: Record<string, unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = new dimse.Client();
    const request = op === 'create' ? new dimse.requests.NCreateRequest(MPPS, uid) : new dimse.requests.NSetRequest(MPPS, uid);
    request.setDataset(new dimse.Dataset(attrs));
    let status = -1;
    request.on('response', (response: { getStatus(): number }) => { status = response.getStatus(); });
    client.addRequest(request);
    client.on('networkError', (e: Error) => reject(e));
    client.on('closed', () => resolve(status));
    client.send('127.0.0.1', port, callingAe, 'RADWS');
  });
}
