import { UploadPage } from '../../upload/UploadPage.tsx';
import {
  activationCodesUpload,
  faultCodesUpload,
  faultWorkbookUpload,
  updateCommandsUpload,
} from './declarations.tsx';

/** The four upload pages, ready for the screen table. */
export const UpdateCommandsScreen = () => <UploadPage declaration={updateCommandsUpload} />;
export const FaultCodesUploaderScreen = () => <UploadPage declaration={faultWorkbookUpload} />;
export const FaultCodesImporterScreen = () => <UploadPage declaration={faultCodesUpload} />;
export const ActivationCodesUploaderScreen = () => <UploadPage declaration={activationCodesUpload} />;
