import { Field } from './ui/field.tsx'
import { Select } from './ui/input.tsx'

/** Which space a settings page manages: the user's own (value null) or one of the given teams. */
export function SpaceSelect({
  label,
  personalLabel,
  teamLabel,
  teams,
  value,
  onChange,
}: {
  label: string
  personalLabel: string
  teamLabel: (name: string) => string
  teams: readonly { id: string; name: string }[]
  value: string | null
  onChange: (teamId: string | null) => void
}) {
  return (
    <Field label={label} className="max-w-sm">
      <Select value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">{personalLabel}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {teamLabel(team.name)}
          </option>
        ))}
      </Select>
    </Field>
  )
}
