import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import type { FilmView as Film } from '../../../contract/shares';
import { FilmAccessForm } from './FilmAccessForm';
import { FilmView } from './FilmView';
import { PublicFrame } from '@/ui/PublicFrame';

/** /sf/{link}: an electronic film; the code printed with it opens it. */
export default function FilmPage() {
  const { t } = useTranslation();
  const { link } = useParams<{ link: string }>();
  const [film, setFilm] = useState<Film | null>(null);
  return (
    <PublicFrame title={t('share.film.title')} wide>
      {film ? <FilmView film={film} /> : <FilmAccessForm link={link} onOpen={setFilm} />}
    </PublicFrame>
  );
}
