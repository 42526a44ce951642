import { lazy } from 'react';
import { workspaceSlots } from '@/features/report/workspace/slots';

/**
 * Composition: the report workspace shows the viewer's panels in its slots. The app joins the two features here
 * (as OHIF composes panels by id), so neither imports the other; each panel stays in its own chunk.
 */
workspaceSlots.viewer = lazy(() => import('@/features/viewer/WorkspaceViewer'));
workspaceSlots.keyImages = lazy(() => import('@/features/viewer/KeyImagesPanel'));
