type FormErrorSummaryProps = {
  /** How many fields are invalid. */
  errorCount: number;
  serverError: string | null;
  /** Where the invalid fields are to be found. */
  fixHint?: string;
};

/** The alert above a form: how many fields to fix, and why a save failed. */
export const FormErrorSummary = ({
  errorCount,
  serverError,
  fixHint = '各項目をご確認ください。',
}: FormErrorSummaryProps) => {
  if (errorCount === 0 && !serverError) return null;
  return (
    <div className="form-alert" role="alert">
      {errorCount > 0 && (
        <p>
          入力内容に{errorCount}件の誤りがあります。{fixHint}
        </p>
      )}
      {serverError && <p>{serverError}</p>}
    </div>
  );
};
