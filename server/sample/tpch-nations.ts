// `NATIONS` and `REGIONS`: TPC-H's fixed nation and region lists, shared by the built-in sample and bench/data.

export const REGIONS = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'] as const;

/** [name, region key]; the position is the nation key. */
export const NATIONS: readonly (readonly [string, number])[] = [
  ['ALGERIA', 0],
  ['ARGENTINA', 1],
  ['BRAZIL', 1],
  ['CANADA', 1],
  ['EGYPT', 4],
  ['ETHIOPIA', 0],
  ['FRANCE', 3],
  ['GERMANY', 3],
  ['INDIA', 2],
  ['INDONESIA', 2],
  ['IRAN', 4],
  ['IRAQ', 4],
  ['JAPAN', 2],
  ['JORDAN', 4],
  ['KENYA', 0],
  ['MOROCCO', 0],
  ['MOZAMBIQUE', 0],
  ['PERU', 1],
  ['CHINA', 2],
  ['ROMANIA', 3],
  ['SAUDI ARABIA', 4],
  ['VIETNAM', 2],
  ['RUSSIA', 3],
  ['UNITED KINGDOM', 3],
  ['UNITED STATES', 1],
];
