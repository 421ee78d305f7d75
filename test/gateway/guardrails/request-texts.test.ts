import { describe, expect, it } from 'vitest';
import { visitRequestTexts } from '../../../src/server/gateway/guardrails/request-texts.js';
import type { Endpoint } from '../../../src/server/gateway/pipeline/request-context.js';

/** Every text of a request, as `kind:path=text`, with each rewritten to upper case in place. */
function walk(endpoint: Endpoint, body: Record<string, unknown>): string[] {
  const seen: string[] = [];
  visitRequestTexts(endpoint, body, (text, where) => {
    seen.push(`${where.kind}:${where.path}=${text}`);
    return text.toUpperCase();
  });
  return seen;
}

describe('every text a request carries', () => {
  it('chat: messages, parts, refusals, tool results and tool-call arguments', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'developer', content: 'd' },
        { role: 'user', content: [{ type: 'text', text: 'u' }] },
        {
          role: 'assistant',
          content: 'a',
          refusal: 'r',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"x":"y"}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 't' },
      ],
    };
    expect(walk('chat', body)).toEqual([
      'system:messages[0].content=d',
      'message:messages[1].content[0].text=u',
      'message:messages[2].content=a',
      'message:messages[2].refusal=r',
      'tool_arguments:messages[2].tool_calls[0].function.arguments={"x":"y"}',
      'tool_result:messages[3].content=t',
    ]);
    expect(body.messages[2]!.tool_calls![0]!.function.arguments).toBe('{"X":"Y"}');
  });

  it('Messages and count_tokens: system, text, tool_use input strings, keys and numbers, tool results, text documents, search results (title and source too)', () => {
    const body = () => ({
      model: 'm',
      system: 's',
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't', name: 'f', input: { q: 'q', list: ['l'], n: 1, deep: { k: 'v' } } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'r' }] },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' } },
            { type: 'search_result', source: 'https://x', title: 'T', content: [{ type: 'text', text: 'sr' }] },
          ],
        },
      ],
    });
    const expected = [
      'system:system=s',
      'tool_arguments:messages[0].content[0].input.q=q',
      'tool_arguments:messages[0].content[0].input.list=list',
      'tool_arguments:messages[0].content[0].input.n=n',
      'tool_arguments:messages[0].content[0].input.deep=deep',
      'tool_arguments:messages[0].content[0].input.Q=q',
      'tool_arguments:messages[0].content[0].input.LIST[0]=l',
      'tool_arguments:messages[0].content[0].input.N=1',
      'tool_arguments:messages[0].content[0].input.DEEP.k=k',
      'tool_arguments:messages[0].content[0].input.DEEP.K=v',
      'tool_result:messages[1].content[0].content[0].text=r',
      'message:messages[1].content[1].source.data=doc',
      'message:messages[1].content[2].content[0].text=sr',
      'message:messages[1].content[2].title=T',
      'message:messages[1].content[2].source=https://x',
    ];
    const sorted = (list: string[]) => [...list].sort();
    const messages = body();
    expect(sorted(walk('messages', messages))).toEqual(sorted(expected));
    // Keys are text the model reads too (renamed in place, order kept); a number unchanged stays a number.
    expect(messages.messages[0]!.content[0]).toMatchObject({ input: { Q: 'Q', LIST: ['L'], N: 1, DEEP: { K: 'V' } } });
    const use = messages.messages[0]!.content[0] as { input: object };
    expect(Object.keys(use.input)).toEqual(['Q', 'LIST', 'N', 'DEEP']);
    expect(sorted(walk('count_tokens', body()))).toEqual(sorted(expected));
  });

  it('Responses: instructions, string input, message items, function calls and their outputs', () => {
    expect(walk('responses', { model: 'm', input: 'hello' })).toEqual(['message:input=hello']);
    const body = {
      model: 'm',
      instructions: 'i',
      input: [
        { role: 'system', content: 'sys' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'u' }, { type: 'input_image' }] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'o' },
        { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'o2' }] },
        { type: 'reasoning', summary: [] },
      ],
    };
    expect(walk('responses', body)).toEqual([
      'system:instructions=i',
      'system:input[0].content=sys',
      'message:input[1].content[0].text=u',
      'message:input[2].content[0].text=a',
      'tool_arguments:input[3].arguments={}',
      'tool_result:input[4].output=o',
      'tool_result:input[5].output[0].text=o2',
    ]);
    expect(body.input[4]).toMatchObject({ output: 'O' });
  });

  it('embeddings: string inputs, not token arrays', () => {
    const body = { model: 'm', input: ['a', 'b'] };
    expect(walk('embeddings', body)).toEqual(['input:input[0]=a', 'input:input[1]=b']);
    expect(body.input).toEqual(['A', 'B']);
    expect(walk('embeddings', { model: 'm', input: 'x' })).toEqual(['input:input=x']);
    expect(walk('embeddings', { model: 'm', input: [1, 2, 3] })).toEqual([]);
    expect(walk('models', {})).toEqual([]);
  });
});
