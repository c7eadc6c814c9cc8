import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { operationQuery } from '../../lib/queries.ts'

/**
 * "Used by": the prompts of the same space that include this one with a reference. Shown only
 * when there are any; while there are, deleting this prompt is refused.
 */
export function UsedByCard({ promptId }: { promptId: string }) {
  const { t } = useTranslation('prompts')
  const usedBy = useQuery(operationQuery(promptOperations.usedBy, { params: { id: promptId } }))
  const items = usedBy.data?.items ?? []
  if (items.length === 0) return null
  return (
    <Card role="region" aria-label={t('usedBy.title')}>
      <CardHeader>
        <CardTitle>{t('usedBy.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-2">
        <p className="text-sm text-muted-foreground">{t('usedBy.description')}</p>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {items.map((item) => (
            <li key={item.id}>
              <Link to={`/prompts/${item.id}`} className="hover:underline">
                {item.title}
              </Link>{' '}
              <code className="text-xs text-muted-foreground">{item.name}</code>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
