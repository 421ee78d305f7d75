-- Responses kept before their RAG collections were recorded (0014) read '[]', as if made with none, and
-- every teammate may read them. Those kept by a key that may read collections may quote one the
-- teammate may not: marked with a name no collection can have, they stay readable by the key that kept
-- them alone. A key without a RAG scope could not have retrieved anything; its responses stay shared.
UPDATE `gateway_responses` SET `rag_collections` = '["(not recorded)"]'
WHERE `rag_collections` = '[]' AND `team` IS NOT NULL AND `key_id` IN (
  SELECT k.`id` FROM `gateway_api_keys` k, json_each(k.`scopes`) s WHERE s.value = '*' OR s.value LIKE 'rag:%'
);
