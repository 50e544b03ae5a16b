import { MAKE_LIST_PATH, SEGMENTS } from '@obd/contract/constants';
import { apiFetchParsedLater } from '../../lib/api.ts';
import type { SuggestionSource, TextFilterField } from '../../list/declaration.ts';

/** Every make of the make list (decisions §5: make inputs suggest makes), asked once and cached. */
export const makeSuggestions: SuggestionSource = {
  key: 'makes',
  load: async (signal) => {
    const { data } = await apiFetchParsedLater(
      async () => (await import('./schemas.ts')).makeListSchema,
      MAKE_LIST_PATH,
      { signal },
    );
    return data.map((make) => make.name);
  },
};

/** The segments of the make list (decisions §2): car, bike, three_wheeler, hcv. */
export const segmentSuggestions: SuggestionSource = {
  key: 'segments',
  load: () => Promise.resolve(SEGMENTS),
};

/** A make filter (decisions §5: make inputs suggest makes from the make list). */
export const makeFilter = <Name extends string>(name: Name, label = 'Make'): TextFilterField<Name> => ({
  kind: 'text',
  name,
  label,
  placeholder: 'e.g. Honda',
  suggestions: makeSuggestions,
});
