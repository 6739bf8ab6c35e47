// TPC-H's fixed lists (TPC-H spec 4.2.2.13 and dbgen's dists.dss): nations, regions, part name and type
// syllables, and the weighted word lists of the comment grammar.

// The 5 regions and the 25 nations with their region keys (position = key), as the built-in sample has them.
export { NATIONS, REGIONS } from '../../server/sample/tpch-sample.js';

export const SEGMENTS = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'HOUSEHOLD', 'MACHINERY'] as const;
export const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'] as const;
export const SHIP_MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'] as const;
export const INSTRUCTIONS = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'] as const;

export const TYPE_SIZES = ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'] as const;
export const TYPE_FINISHES = ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'] as const;
export const TYPE_METALS = ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'] as const;
export const CONTAINER_SIZES = ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'] as const;
export const CONTAINER_KINDS = ['CASE', 'BOX', 'BAG', 'JAR', 'PKG', 'PACK', 'CAN', 'DRUM'] as const;

/** The 92 colours that make up part names (five distinct ones per part). */
export const COLORS = `almond antique aquamarine azure beige bisque black blanched blue blush brown burlywood burnished
chartreuse chiffon chocolate coral cornflower cornsilk cream cyan dark deep dim dodger drab firebrick floral forest
frosted gainsboro ghost goldenrod green grey honeydew hot indian ivory khaki lace lavender lawn lemon light lime linen
magenta maroon medium metallic midnight mint misty moccasin navajo navy olive orange orchid pale papaya peach peru pink
plum powder puff purple red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring steel tan
thistle tomato turquoise violet wheat white yellow`.split(/\s+/);

/** A weighted word list: each word appears `weight` times, so a uniform pick follows the weights. */
type Weighted = readonly (readonly [string, number])[];
const expand = (list: Weighted): string[] => list.flatMap(([w, n]) => Array<string>(n).fill(w));

export const NOUNS = expand([
  ['packages', 40],
  ['requests', 40],
  ['accounts', 40],
  ['deposits', 40],
  ['foxes', 20],
  ['ideas', 20],
  ['theodolites', 20],
  ['pinto beans', 20],
  ['instructions', 20],
  ['dependencies', 10],
  ['excuses', 10],
  ['platelets', 10],
  ['asymptotes', 10],
  ['courts', 5],
  ['dolphins', 5],
  ...['multipliers', 'sauternes', 'warthogs', 'frets', 'dinos', 'attainments', 'somas', 'Tiresias', 'patterns']
    .concat(['forges', 'braids', 'hockey players', 'frays', 'warhorses', 'dugouts', 'notornis', 'epitaphs', 'pearls'])
    .concat(['tithes', 'waters', 'orbits', 'gifts', 'sheaves', 'depths', 'sentiments', 'decoys', 'realms', 'pains'])
    .concat(['grouches', 'escapades'])
    .map((w) => [w, 1] as const),
]);

export const VERBS = expand([
  ['sleep', 20],
  ['wake', 20],
  ['are', 20],
  ['cajole', 20],
  ['haggle', 20],
  ['nag', 10],
  ['use', 10],
  ['boost', 10],
  ['affix', 5],
  ['detect', 5],
  ['integrate', 5],
  ...['maintain', 'nod', 'was', 'lose', 'sublate', 'solve', 'thrash', 'promise', 'engage', 'hinder', 'print']
    .concat(['x-ray', 'breach', 'eat', 'grow', 'impress', 'mold', 'poach', 'serve', 'run', 'dazzle', 'snooze'])
    .concat(['doze', 'unwind', 'kindle', 'play', 'hang', 'believe', 'doubt'])
    .map((w) => [w, 1] as const),
]);

export const ADJECTIVES = expand([
  ['special', 20],
  ['pending', 20],
  ['unusual', 20],
  ['express', 20],
  ['regular', 50],
  ['final', 40],
  ['ironic', 40],
  ['even', 30],
  ['bold', 20],
  ['silent', 10],
  ...['furious', 'sly', 'careful', 'blithe', 'quick', 'fluffy', 'slow', 'quiet', 'ruthless', 'thin', 'close']
    .concat(['dogged', 'daring', 'brave', 'stealthy', 'permanent', 'enticing', 'idle', 'busy'])
    .map((w) => [w, 1] as const),
]);

export const ADVERBS = expand([
  ['furiously', 50],
  ['slyly', 50],
  ['carefully', 50],
  ['blithely', 40],
  ['quickly', 30],
  ['fluffily', 20],
  ...['sometimes', 'always', 'never', 'slowly', 'quietly', 'ruthlessly', 'thinly', 'closely', 'doggedly']
    .concat(['daringly', 'bravely', 'stealthily', 'permanently', 'enticingly', 'idly', 'busily', 'regularly'])
    .concat(['finally', 'ironically', 'evenly', 'boldly', 'silently'])
    .map((w) => [w, 1] as const),
]);

export const PREPOSITIONS = expand([
  ['about', 50],
  ['above', 50],
  ['according to', 50],
  ['across', 50],
  ['after', 50],
  ['against', 40],
  ['along', 40],
  ['alongside of', 30],
  ['among', 30],
  ['around', 20],
  ...['at', 'atop', 'before', 'behind', 'beneath', 'beside', 'besides', 'between', 'beyond', 'by', 'despite']
    .concat(['during', 'except', 'for', 'from', 'in place of', 'inside', 'instead of', 'into', 'near', 'of', 'on'])
    .concat(['outside', 'over', 'past', 'since', 'through', 'throughout', 'to', 'toward', 'under', 'until', 'up'])
    .concat(['upon', 'without', 'with', 'within'])
    .map((w) => [w, 10] as const),
]);

export const AUXILIARIES = expand([
  ['do', 1],
  ['may', 1],
  ['might', 1],
  ['shall', 1],
  ['will', 1],
  ['would', 1],
  ['can', 1],
  ['could', 1],
  ['should', 1],
  ['ought to', 1],
  ['must', 1],
  ['will have to', 1],
  ['shall have to', 1],
  ['could have to', 1],
  ['should have to', 1],
  ['must have to', 1],
  ['need to', 1],
  ['try to', 1],
]);

export const TERMINATORS = expand([
  ['.', 50],
  [';', 1],
  [':', 1],
  ['?', 1],
  ['!', 1],
  ['--', 1],
]);
