/** An error from the API (or a form), announced to screen readers. */
export function ErrorText({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p className="error-text" role="alert" id={id}>
      {message}
    </p>
  );
}
