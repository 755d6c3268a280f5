/** A column as a warehouse records it. */
export interface ColumnShape {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
}

/** What differs between stored and expected columns, one phrase per problem; empty when equal. */
export function columnDifferences(stored: readonly ColumnShape[], expected: readonly ColumnShape[]): string[] {
  const describe = (column: ColumnShape): string => `${column.type}${column.nullable ? '' : ' NOT NULL'}`;
  const storedByName = new Map(stored.map((column) => [column.name, column]));
  const expectedNames = new Set(expected.map((column) => column.name));
  const problems: string[] = [];
  for (const column of expected) {
    const found = storedByName.get(column.name);
    if (found === undefined) problems.push(`column ${column.name} (${describe(column)}) is missing`);
    else if (describe(found) !== describe(column)) {
      problems.push(`column ${column.name} is ${describe(found)}, expected ${describe(column)}`);
    }
  }
  for (const column of stored) {
    if (!expectedNames.has(column.name)) problems.push(`column ${column.name} (${describe(column)}) is not in the definition`);
  }
  const order = (columns: readonly ColumnShape[]): string => columns.map((column) => column.name).join(', ');
  if (problems.length === 0 && order(stored) !== order(expected)) {
    problems.push(`columns are in order (${order(stored)}), expected (${order(expected)})`);
  }
  return problems;
}
