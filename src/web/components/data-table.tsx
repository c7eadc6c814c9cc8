import type { HTMLAttributes, ReactNode } from 'react'
import { cn } from '../lib/cn.ts'

/** A column's header and how its cells sit. */
interface ColumnHead {
  header: string
  /** The header is read by screen readers only (an actions column). */
  hideHeader?: boolean
  /** Counts and amounts: right-aligned, in tabular figures. */
  numeric?: boolean
  /** Right-aligned without tabular figures (a column of buttons). */
  alignEnd?: boolean
  className?: string
}

/** One column: its header, and what a row shows in it. */
export interface Column<Row> extends ColumnHead {
  cell: (row: Row) => ReactNode
  /** The cell names its row (`<th scope="row">`), so a screen reader announces it with each cell. */
  rowHeader?: boolean
}

interface TableLook {
  /** A screen reader's name of the table. */
  caption: string
  /** A bordered table that scrolls sideways on narrow screens (lists); else a plain one in a card. */
  framed?: boolean
  /** The table's classes (e.g. a minimum width before it scrolls). */
  className?: string
  frameClassName?: string
}

/**
 * A table of rows with a caption for screen readers and a `scope` on every header. `columns` may
 * hold `false` for a column shown only sometimes.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  ...look
}: TableLook & {
  columns: readonly (Column<Row> | false)[]
  rows: readonly Row[]
  rowKey: (row: Row) => string
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & { 'data-testid'?: string }
}) {
  const shown = columns.filter((column): column is Column<Row> => column !== false)
  const framed = look.framed ?? true
  return (
    <TableWithRows columns={shown} {...look}>
      <tbody className={framed ? 'divide-y' : undefined}>
        {rows.map((row) => {
          const props = rowProps?.(row) ?? {}
          return (
            <tr key={rowKey(row)} {...props} className={cn(!framed && 'border-t', props.className)}>
              {shown.map((column) =>
                column.rowHeader ? (
                  <th
                    key={column.header}
                    scope="row"
                    className={cn(cellClass(column, framed), 'font-normal')}
                  >
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={cellClass(column, framed)}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          )
        })}
      </tbody>
    </TableWithRows>
  )
}

/**
 * The same table with a body its caller writes (`<tbody>`s of rows, cells padded with
 * `cellClass`), for rows that span several lines (the webhook delivery log: a body per delivery).
 */
export function TableWithRows({
  caption,
  columns,
  framed = true,
  className,
  frameClassName,
  children,
}: TableLook & { columns: readonly ColumnHead[]; children: ReactNode }) {
  const table = (
    <table className={cn('w-full text-left text-sm', className)}>
      <caption className="sr-only">{caption}</caption>
      <thead className={cn('text-xs text-muted-foreground', framed && 'bg-muted/50')}>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={cn(cellClass(column, framed), 'font-medium')}>
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      {children}
    </table>
  )
  if (!framed) return table
  return <div className={cn('overflow-x-auto rounded-md border', frameClassName)}>{table}</div>
}

/** A cell's padding and alignment; framed tables pad both sides, plain ones leave the edges flush. */
export function cellClass(column: Partial<ColumnHead> = {}, framed = true): string {
  return cn(
    framed ? 'px-3 py-2' : 'py-1.5 pr-3 last:pr-0',
    (column.numeric || column.alignEnd) && 'text-right',
    column.numeric && 'tabular-nums',
    column.className,
  )
}
