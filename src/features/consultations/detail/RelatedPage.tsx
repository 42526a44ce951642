import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { CommandScope, useCommands } from '@/lib/commands';
import { navigate } from '@/lib/session';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { ConsultationHeader } from './ActionsBar';
import { detailApi } from './api';
import { CasesPanel } from './CasesPanel';
import { consultationCommands, type ConsultationCommandContext } from './commands';
import { consultationPath, LoadProblem } from './DetailPage';
import { MembersPanel } from './MembersPanel';
import { PatientPanel } from './PatientPanel';
import { RatingPanel } from './RatingPanel';
import { ResultPanel } from './ResultPanel';
import { SuggestionsPanel } from './SuggestionsPanel';

const nothing = () => undefined;
const never = () => false;
const noWrite = async () => false;

/**
 * /consultations/{id}/related/{linkId} (areas §2): a consultation linked to this one, read-only whatever the reader
 * could do on it itself (GET consultations/{id}/related/{linkId}), with the way back to the one it was opened from.
 */
export default function RelatedPage() {
  const { t } = useTranslation();
  const params = useParams<{ id: string; linkId: string }>();
  const valid = /^\d{1,10}$/.test(params.id ?? '') && /^\d{1,10}$/.test(params.linkId ?? '');
  const id = Number(params.id);
  const linkId = Number(params.linkId);
  const related = useLoad(valid ? `consultation:${id}:related:${linkId}` : null, (signal) => detailApi.related(id, linkId, { signal }));
  const back = useCallback(() => navigate(consultationPath(id)), [id]);
  const context: ConsultationCommandContext = {
    page: 'related', can: never, canSaveResult: false, canPrint: false,
    schedule: nothing, update: nothing, editResult: nothing, saveResult: nothing, approve: nothing, cancel: nothing, rate: nothing,
    payment: nothing, members: nothing, addCase: nothing, link: nothing, addExam: nothing, suggest: nothing, print: nothing, video: nothing,
    reload: related.reload, back,
  };
  useCommands(consultationCommands, context);

  if (!valid) return <LoadProblem error={new Error('bad id')} onRetry={related.reload} />;
  if (related.error && !related.data) return <LoadProblem error={related.error} onRetry={related.reload} />;
  const detail = related.data;
  return (
    <CommandScope scope="consultation">
      {!detail ? <div className="m-6"><Spinner label={t('common.loading')} /></div> : (
        <div className="flex min-h-0 flex-1 flex-col bg-bg" data-testid="consultation-related">
          <ConsultationHeader detail={detail} can={never} busy={false} backLabel={t('consultations.detail.related.back', { id })}
            actions={{ schedule: nothing, editResult: nothing, approve: nothing, cancel: nothing, rate: nothing, update: nothing, print: nothing, back, setPayment: nothing }} />
          <div className="min-h-0 flex-1 overflow-y-auto">
            <div className="mx-auto flex max-w-[1400px] flex-col gap-3 p-3">
              <Alert tone="info">{t('consultations.detail.related.readOnly', { id })}</Alert>
              <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_24rem]">
                <div className="flex min-w-0 flex-col gap-3">
                  <PatientPanel detail={detail} />
                  <CasesPanel detail={detail} canAdd={false} canDelete={false} busy={false} write={noWrite} reload={related.reload} addSignal={0} />
                  <ResultPanel detail={detail} editable={false} busy={false} write={noWrite} />
                  <SuggestionsPanel detail={detail} canSuggest={false} busy={false} write={noWrite} />
                </div>
                <aside className="flex min-w-0 flex-col gap-3">
                  <MembersPanel detail={detail} canEdit={false} onEdit={nothing} />
                  <RatingPanel detail={detail} canRate={false} onRate={nothing} />
                </aside>
              </div>
            </div>
          </div>
        </div>
      )}
    </CommandScope>
  );
}
