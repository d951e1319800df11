/**
 * The mark athena puts on what it writes into a notebook, so its indexer leaves that out
 * and athena never cites its own answers. The notebook parser
 * (athena_lab/ingest/parsers/notebook.py) skips cells and outputs whose metadata holds
 * it; the kernel side writes the same mark (athena_lab/document.py's GENERATED_MARK).
 */

export const GENERATED_KEY = 'athena_lab';

/** What a cell model offers for this: JupyterLab's ICellModel.setMetadata. */
export interface IMetadataTarget {
  setMetadata(key: string, value: { generated: boolean }): void;
}

/** Mark a cell athena inserted ("Insert in notebook") as athena's own. */
export function markGenerated(model: IMetadataTarget): void {
  model.setMetadata(GENERATED_KEY, { generated: true });
}
