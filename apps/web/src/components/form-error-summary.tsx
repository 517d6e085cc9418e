type FormErrorSummaryProps = {
  /** How many fields are invalid. */
  errorCount: number;
  serverError: string | null;
};

/** The alert above an admin form: how many fields to fix, and why a save failed. */
export const FormErrorSummary = ({
  errorCount,
  serverError,
}: FormErrorSummaryProps) => {
  if (errorCount === 0 && !serverError) return null;
  return (
    <div className="form-alert" role="alert">
      {errorCount > 0 && (
        <p>
          入力内容に{errorCount}件の誤りがあります。各項目をご確認ください。
        </p>
      )}
      {serverError && <p>{serverError}</p>}
    </div>
  );
};
