/**
 * What `validateCpr` computes once per document and several rules read: the document's view
 * (`view.ts`) and its sub-interface selection (`subinterface.ts`). Set for the length of one
 * synchronous validation, during which nothing changes the document; a nested validation
 * clears it, so the outer one computes afresh.
 *
 * @packageDocumentation
 */
/**
 * The document being validated, and what was computed for it so far: its `CprView` (set by
 * `viewOf`) and its `Selection` (set by `selectSubInterface`), typed by their owners (this
 * module imports neither, so that they can both import it).
 */
export const documentMemo: {
  doc: object | undefined;
  view: unknown;
  selection: unknown;
} = { doc: undefined, view: undefined, selection: undefined };

/** Starts remembering for `doc` (internal to `validateCpr`, which ends it in a `finally`). */
export function beginDocumentMemo(doc: object): void {
  documentMemo.doc = doc;
  documentMemo.view = undefined;
  documentMemo.selection = undefined;
}

/** Forgets the document of {@link beginDocumentMemo}. */
export function endDocumentMemo(): void {
  documentMemo.doc = undefined;
  documentMemo.view = undefined;
  documentMemo.selection = undefined;
}
