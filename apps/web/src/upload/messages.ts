/** The upload error sentences of spec §8, verbatim. */
export const UPLOAD_MESSAGES = {
  /** The connection broke after the upload had started. */
  network: 'Network error. Please try again.',
  /** The server said the upload failed without a sentence of its own. */
  failed: 'Upload failed',
  timeout: 'Upload timeout. The file may be too large or the server is busy.',
  /** Nothing reached the server at all. */
  unreachable: 'Cannot connect to server. Please check if the server is running and the URL is correct.',
  /** A 2xx answer that is not JSON, or not the endpoint's shape. */
  invalidResponse: 'Server returned an invalid response. Please check server logs.',
  /** The endpoint is not there (404/405) or an HTML page answered instead of the API. */
  configuration: 'Server configuration error. Please check server setup.',
  /** Submitting without a file (spec §5). */
  noFile: 'Please select a file first',
} as const;
