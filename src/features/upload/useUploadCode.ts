import { useEffect, useState } from 'react';
import type { UploadCodeInfo } from '../../../contract/uploads';
import { http } from '@/lib/http';

/** GET upload-codes/{code}: what the code is for, without internal ids (a masked name when it targets one exam). */
export function useUploadCode(code: string | null) {
  const [info, setInfo] = useState<UploadCodeInfo | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!code) return;
    const controller = new AbortController();
    http.get<UploadCodeInfo>(`upload-codes/${encodeURIComponent(code)}`, { signal: controller.signal })
      .then(setInfo, (err: unknown) => !controller.signal.aborted && setError(err));
    return () => controller.abort();
  }, [code]);
  return { info, error };
}
