/** The learning screens' addresses (areas §2). */
export const LEARNING_LIST_PATH = '/learning';
export const learningPath = (id: number) => `/learning/${id}`;

/** The video last opened (from the list, a link or a reload): back on the list, its row is the one in hand. */
let lastOpened: number | null = null;
export const noteOpened = (id: number) => { lastOpened = id; };
export const lastOpenedVideo = () => lastOpened;
