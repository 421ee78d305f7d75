/**
 * What the sign-in page says for a failure the address names. The address comes from anyone's link,
 * so only its error type is read, and only to pick one of these fixed sentences; the gateway's own
 * description is looked up by reference (see fetchSsoFailure).
 */
export function ssoFailureMessage(error: string | undefined): string {
  switch (error) {
    case 'access_denied':
      return 'The sign-in was cancelled.';
    case 'authentication_error':
      return 'The identity provider did not confirm who you are.';
    case 'permission_error':
      return 'Your account is not allowed an API key here.';
    case 'upstream_error':
      return 'The identity provider could not be reached or gave no usable answer.';
    case 'invalid_request_error':
    case 'not_found_error':
      return 'The sign-in could not be completed.';
    default:
      return 'The sign-in failed.';
  }
}
