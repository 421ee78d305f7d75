import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { badRequest } from '../../http/errors.js';
import { validate } from '../formats/validation.js';

/**
 * Validates route schemas (zod) with messages that name the field and the value, as the error
 * contract asks (`temperature must be between 0 and 2, got 3.5`), instead of zod's generic wording.
 */
export const formatValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // The plain parse is about twice as fast; the input-reporting one runs only to word an error.
    const fast = schema.safeParse(data);
    if (fast.success) return { value: fast.data };
    // An admin listing's unknown parameter: its schema words the refusal, naming what it takes.
    const first = fast.error.issues[0];
    if (httpPart === 'querystring' && first?.code === 'unrecognized_keys' && first.path.length === 0)
      return { error: badRequest(first.message) };
    const result = validate(schema, data);
    if (result.ok) return { value: result.value };
    const where =
      httpPart === 'querystring'
        ? 'query parameter '
        : httpPart === 'params'
          ? 'path parameter '
          : httpPart === 'headers'
            ? 'header '
            : '';
    // OpenAI names the body field or query parameter at fault; a path segment or header is no param.
    const param = httpPart === 'body' || httpPart === 'querystring' ? result.param : null;
    return { error: badRequest(`${where}${result.message}`, param) };
  };
