export type SegmentedProps<V extends string> = {
  /** Read by screen readers: what the choice is about. */
  legend: string;
  /** The radio group's name, unique on the page. */
  name: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
};

/** A row of mutually exclusive filters (未対応 / 対応済み …) as native radios. */
export const Segmented = <V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: SegmentedProps<V>) => (
  <fieldset className="segmented">
    <legend className="visually-hidden">{legend}</legend>
    {options.map((o) => (
      <label key={o.value} className="segmented__option">
        <input
          type="radio"
          name={name}
          value={o.value}
          checked={value === o.value}
          onChange={() => onChange(o.value)}
        />
        <span>{o.label}</span>
      </label>
    ))}
  </fieldset>
);
