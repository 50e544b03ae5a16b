/** How much of a sheet or shared-string part the XLSX scanners hold before they refuse it. */

/**
 * A row (or a shared text, or any run without one's end) longer than this is not one a
 * spreadsheet program writes: 16,384 cells of `<c r="XFD1048576" t="s"><v>1234567</v></c>` are
 * under 1 MB. Its bytes are parsed in one step, so the bound is also how long a step can take.
 */
export const MAX_RUN_BYTES = 4 * 1024 * 1024;
/** Bytes held without an end tag after which a run of empty elements (`<row r="9"/>`) is looked for. */
export const LOOK_FOR_EMPTY_BYTES = 1024 * 1024;
/** Bytes before the root element (the XML declaration and comments): Excel writes ~60. */
export const MAX_PROLOGUE_BYTES = 256 * 1024;
