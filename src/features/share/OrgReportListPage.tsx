import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearch } from 'wouter';
import type { OrgVerifyConfig, PatientReports } from '../../../contract/shares';
import { errorText } from '@/lib/errorText';
import { http, isHttpError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { TextField } from '@/ui/TextField';
import { PublicFrame } from '@/ui/PublicFrame';
import { ReportList } from './ReportList';
import { usePublicCall } from './usePublicCall';

type Verifies = { patientId: string; patientName: string; patientDob: string };
const EMPTY: Verifies = { patientId: '', patientName: '', patientDob: '' };

function parseVerifies(raw: string | null): Verifies | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Verifies>;
    return { patientId: String(value.patientId ?? ''), patientName: String(value.patientName ?? ''), patientDob: String(value.patientDob ?? '') };
  } catch {
    return null;
  }
}

/**
 * /reports/{orgCode}/list?verifies: an organisation's published reports for a patient who proves who they
 * are with the fields the organisation asks (ID, name, birth date). `verifies` is URL-encoded JSON.
 */
export default function OrgReportListPage() {
  const { t } = useTranslation();
  const { orgCode } = useParams<{ orgCode: string }>();
  const [location, navigate] = useLocation();
  const raw = new URLSearchParams(useSearch()).get('verifies');
  const verifies = parseVerifies(raw);
  const config = usePublicCall(orgCode, (signal) => http.get<OrgVerifyConfig>(`integration/org-verify-configs/${encodeURIComponent(orgCode)}`, { signal }));
  const list = usePublicCall(verifies ? `${orgCode}\u0000${raw}` : null, (signal) => http.get<PatientReports>('integration/exam-reports', { query: { orgCode, verifies: raw }, signal }));
  const [form, setForm] = useState<Verifies>(verifies ?? EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof Verifies, string>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields = config.data?.fields ?? ['patientId', 'patientName', 'patientDob'];
    const found = Object.fromEntries(fields.filter((f) => !form[f].trim()).map((f) => [f, t('validation.required', { field: t(`share.verify.${f}`) })]));
    setProblems(found);
    if (Object.keys(found).length) return;
    const value: Verifies = { patientId: form.patientId.trim(), patientName: form.patientName.trim(), patientDob: form.patientDob };
    navigate(`${location}?verifies=${encodeURIComponent(JSON.stringify(value))}`, { replace: true });
  };

  return (
    <PublicFrame title={config.data ? t('share.verify.titleOf', { organisation: config.data.organisation }) : t('share.list.title')}>
      {config.loading ? <Spinner label={t('common.loading')} />
        : config.error ? <Alert>{isHttpError(config.error) && config.error.status === 404 ? t('share.verify.unknownOrg') : errorText(t, config.error)}</Alert>
          : (
            <div className="flex flex-col gap-5">
              <form onSubmit={submit} noValidate className="rounded-lg border border-line bg-surface p-5">
                <p className="mb-3 text-sm text-fg-muted">{t('share.verify.intro')}</p>
                <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
                  {(config.data?.fields ?? []).map((field) => (
                    <TextField key={field} label={t(`share.verify.${field}`)} name={field} type={field === 'patientDob' ? 'date' : 'text'} maxLength={128}
                      value={form[field]} error={problems[field]} onChange={(e) => setForm((f) => ({ ...f, [field]: e.target.value }))} />
                  ))}
                </div>
                <div className="flex justify-end">
                  <button type="submit" className="btn btn-primary">{t('share.verify.search')}</button>
                </div>
              </form>
              {list.loading ? <Spinner label={t('common.loading')} />
                : list.error ? <Alert>{isHttpError(list.error) && list.error.status === 404 ? t('share.list.notFound') : errorText(t, list.error)}</Alert>
                  : list.data && <ReportList items={list.data.items} />}
            </div>
          )}
    </PublicFrame>
  );
}
