/** The uploads module's table (migrations 0021, 0028): files the public may no longer fetch, one row per reason. */
export interface UploadsTables {
  withdrawn_uploads: {
    /** Relative to DATA_DIR/uploads, as photos_json names it ('ads/….webp'). */
    path: string;
    /**
     * 'unreviewed:<ad id>' (no approved version of that ad has shown it yet), 'ad:<id>' (staff
     * disabled it), 'user:<id>' (its owner is suspended) or 'hold' (only a legal hold keeps the file).
     */
    reason: string;
  };
}
