import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilmView as Film } from '../../../contract/shares';
import { FilmAccessForm } from './FilmAccessForm';
import { FilmView } from './FilmView';
import { PublicFrame } from '@/ui/PublicFrame';

/** /efilm/query: an electronic film found by the patient ID and the code printed with the film. */
export default function FilmQueryPage() {
  const { t } = useTranslation();
  const [film, setFilm] = useState<Film | null>(null);
  return (
    <PublicFrame title={t('share.film.title')} wide>
      {film ? <FilmView film={film} /> : <FilmAccessForm link={null} onOpen={setFilm} />}
    </PublicFrame>
  );
}
