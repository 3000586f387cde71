import { DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useCreate, useDataProvider, useInvalidate, useList, useUpdate } from '@refinedev/core';
import { Alert, App, Button, Card, Checkbox, Col, Empty, Form, Input, Row, Select, Space, Spin, Typography, type FormInstance } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { FIELD_KEY_RE, SLUG_RE } from '../../../domain/custom-entities';
import { SIDEBAR_GROUPS } from '../../../domain/fields';
import { FieldFormItem } from '../../engine/fields/input';
import { offerReload } from '../../engine/form/stale';
import { errorText } from '../../providers/errors';
import { toProviderError } from '../../providers/dataProvider';
import { ENTITY_ICON_NAMES, ENTITY_ICONS } from '../entity-icons';
import { useRuntimeResources } from '../../engine/runtime/runtime';
import {
  BUILT_IN_TARGETS,
  ENTITY_FIELD_TYPES,
  entityBody,
  entityName,
  formPath,
  inUseDetails,
  isChoice,
  previewField,
  toValues,
  type EntityField,
  type EntityRow,
  type Values,
} from './api';
import { ScreenTitle, SectionTitle } from '../../components/headings';
import { useT, type Translate } from '../../providers/i18nProvider';

const newField = (): Partial<EntityField> => ({
  key: '',
  label_el: '',
  label_en: '',
  type: 'TEXT',
  required: false,
  options: [],
  target: null,
  shown_in_list: true,
  searchable: false,
});

/**
 * /custom-entities/builder/ (ROOT): `?mode=create`, or `?mode=update&entity=<id>`. The entity's
 * names, icon and group, then its fields (drag to reorder), with the form as users will see it
 * beside. A change stored records would not fit is refused by the server and said in words;
 * removing a field that holds values asks first whether to discard them.
 */
export default function CustomEntityBuilderPage() {
  const [params] = useSearchParams();
  const mode = params.get('mode');
  const rawId = params.get('entity');
  const id = rawId && /^\d+$/.test(rawId) ? Number(rawId) : null;
  if (mode !== 'create' && !(mode === 'update' && id !== null)) return <Navigate to="/custom-entities/" replace />;
  return <Builder key={`${mode}-${id}`} id={mode === 'update' ? id : null} />;
}

function Builder({ id }: { id: number | null }) {
  const { t, i18n } = useT();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { reload } = useRuntimeResources();
  const [form] = Form.useForm<Values>();
  const [loaded, setLoaded] = useState<EntityRow | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const dataProvider = useDataProvider();
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();

  // Read once per entity into the form (not a live query: a refetch must not overwrite what is
  // being typed, and reading again would put back a field the user has just removed).
  const readFor = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    if (readFor.current === id) return;
    readFor.current = id;
    if (id === null) {
      form.setFieldsValue({ icon: 'BookOutlined', group: null });
      form.setFieldValue('fields', [newField()]);
      return;
    }
    dataProvider()
      .getOne<EntityRow>({ resource: 'custom-entities', id })
      .then(
        ({ data }) => {
          setLoaded(data);
          form.setFieldsValue(toValues(data));
        },
        (error: unknown) => setLoadError(errorText(error)),
      );
  }, [id, form, dataProvider]);

  // other entities, for REFERENCE targets
  const { result: others } = useList<EntityRow>({ resource: 'custom-entities', pagination: { currentPage: 1, pageSize: 200, mode: 'server' } });
  const targets = useMemo(
    () => [
      ...BUILT_IN_TARGETS.map((name) => ({ value: name, label: t(`${name}.title`) })),
      ...(others.data ?? []).filter((e) => e.id !== id).map((e) => ({ value: `custom:${e.slug}`, label: entityName(e, i18n.language, e) })),
    ],
    [others.data, id, t, i18n.language],
  );
  const storedKeys = useMemo(() => new Set(loaded?.fields.map((f) => f.key) ?? []), [loaded]);

  const send = async (values: Values, discard: string[] = []) => {
    const body = entityBody(values);
    setSaving(true);
    try {
      // the builder says what happened itself: no toast of Refine's
      const quiet = { resource: 'custom-entities', successNotification: false, errorNotification: false } as const;
      if (id === null) await create({ ...quiet, values: body });
      else await update({ ...quiet, id, values: { ...body, version: loaded?.version, ...(discard.length ? { discard_values: discard } : {}) } });
      await invalidate({ resource: 'custom-entities', invalidates: ['list', 'detail'] });
      await reload();
      message.success(t('directory.saved'));
      navigate('/custom-entities/');
    } catch (error) {
      refused(values, error, discard);
    } finally {
      setSaving(false);
    }
  };

  const refused = (values: Values, error: unknown, discard: string[]) => {
    const apiError = toProviderError(error);
    if (apiError.code === 'stale' && id !== null) {
      offerReload(modal, apiError, () => {
        setLoaded(null);
        void dataProvider()
          .getOne<EntityRow>({ resource: 'custom-entities', id })
          .then(({ data }) => {
            setLoaded(data);
            form.setFieldsValue(toValues(data));
          });
      });
      return;
    }
    if (apiError.code === 'in-use') {
      const { count, field } = inUseDetails(apiError.body);
      const kept = values.fields.some((f) => f.key === field);
      const label = fieldLabel(loaded, field, i18n.language);
      if (field && !kept && storedKeys.has(field)) {
        // a removed field holds values: discard them only when asked to
        modal.confirm({
          title: t('custom-entities.discardTitle', { name: label }),
          content: count === undefined ? t('custom-entities.discardText') : t('custom-entities.discardCount', { count }),
          okText: t('custom-entities.discardOk'),
          okButtonProps: { danger: true },
          cancelText: t('buttons.cancel'),
          onOk: () => send(values, [...discard, field]),
        });
        return;
      }
      modal.error({
        title: t('custom-entities.changeRefusedTitle'),
        content: count === undefined ? t('custom-entities.changeRefused', { name: label }) : t('custom-entities.changeRefusedCount', { count, name: label }),
      });
      return;
    }
    const fields = Object.entries(apiError.body?.error?.fields ?? {});
    if (fields.length) {
      const text = (name: string, code: string) =>
        name === 'slug' && code === 'duplicate'
          ? t('custom-entities.slugTaken')
          : t(`custom-entities.codes.${code}`, { defaultValue: t(`fields.${code}`, { defaultValue: t('fields.invalid') }) });
      const shown = fields.filter(([name]) => form.getFieldInstance(formPath(name)) !== undefined || /^(fields\.\d+\.)?\w+$/.test(name));
      form.setFields(shown.map(([name, code]) => ({ name: formPath(name) as never, errors: [text(name, code)] })));
      const general = fields.filter(([name]) => !shown.some(([n]) => n === name));
      if (general.length) message.error(general.map(([name, code]) => `${name}: ${text(name, code)}`).join('; '));
      else message.error(t('directory.saveFailed'));
      return;
    }
    modal.error({ title: t('directory.saveFailed'), content: errorText(apiError) });
  };

  if (loadError) return <Alert type="error" showIcon message={loadError} />;
  if (id !== null && !loaded) return <Spin />;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <ScreenTitle style={{ margin: 0 }}>
        {id === null ? t('custom-entities.create') : t('custom-entities.edit', { name: loaded ? entityName(loaded, i18n.language) : '' })}
      </ScreenTitle>
      <Form<Values> form={form} layout="vertical" onFinish={(values) => send(values)} scrollToFirstError>
        <Row gutter={[24, 16]}>
          <Col xs={24} xl={14}>
            <Space direction="vertical" size="middle" style={{ width: '100%' }}>
              <EntityCard t={t} editing={id !== null} />
              <FieldsCard t={t} targets={targets} storedKeys={storedKeys} form={form} />
              <Space>
                <Button onClick={() => navigate('/custom-entities/')}>{t('buttons.cancel')}</Button>
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t('buttons.save')}
                </Button>
              </Space>
            </Space>
          </Col>
          <Col xs={24} xl={10}>
            <Preview form={form} t={t} />
          </Col>
        </Row>
      </Form>
    </Space>
  );
}

function fieldLabel(entity: EntityRow | null, key: string | undefined, language: string): string {
  const field = entity?.fields.find((f) => f.key === key);
  if (!field) return key ?? '';
  return (language === 'en' ? field.label_en || field.label_el : field.label_el || field.label_en) || field.key;
}

const SLUG = SLUG_RE;
const KEY = FIELD_KEY_RE;

function EntityCard({ t, editing }: { t: Translate; editing: boolean }) {
  const required = [{ required: true, message: t('forms.required') }];
  return (
    <Card title={t('custom-entities.entityCard')} size="small">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="slug"
            label={t('custom-entities.fields.slug')}
            extra={t('custom-entities.slugHint')}
            rules={[...required, { pattern: SLUG, message: t('custom-entities.slugFormat') }]}
          >
            <Input autoComplete="off" maxLength={40} disabled={editing} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="icon" label={t('custom-entities.fields.icon')}>
            <Select
              showSearch
              options={ENTITY_ICON_NAMES.map((name) => ({
                value: name,
                label: (
                  <Space>
                    {ENTITY_ICONS[name as keyof typeof ENTITY_ICONS]}
                    {name.replace(/Outlined$/, '')}
                  </Space>
                ),
                search: name.toLowerCase(),
              }))}
              filterOption={(input, option) => String(option?.search ?? '').includes(input.toLowerCase())}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name_el" label={t('custom-entities.fields.name_el')} rules={required}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name_plural_el" label={t('custom-entities.fields.name_plural_el')} rules={required}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name_en" label={t('custom-entities.fields.name_en')} rules={required}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="name_plural_en" label={t('custom-entities.fields.name_plural_en')} rules={required}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="group" label={t('custom-entities.fields.group')}>
            <Select options={[{ value: null, label: t('custom-entities.noGroup') }, ...SIDEBAR_GROUPS.map((g) => ({ value: g, label: t(`${g}.${g}`) }))]} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="description" label={t('custom-entities.fields.description')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

interface FieldsProps {
  t: Translate;
  targets: { value: string; label: string }[];
  storedKeys: ReadonlySet<string>;
  form: FormInstance<Values>;
}

function FieldsCard({ t, targets, storedKeys, form }: FieldsProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  return (
    <Card title={t('custom-entities.fieldsCard')} size="small">
      <Form.List
        name="fields"
        rules={[
          {
            validator: async (_rule, value: unknown[] | undefined) => {
              if (!value?.length) throw new Error(t('custom-entities.atLeastOneField'));
            },
          },
        ]}
      >
        {(items, { add, remove, move }, { errors }) => {
          const onDragEnd = ({ active, over }: DragEndEvent) => {
            if (!over || active.id === over.id) return;
            const from = items.findIndex((i) => i.key === active.id);
            const to = items.findIndex((i) => i.key === over.id);
            if (from >= 0 && to >= 0) move(from, to);
          };
          return (
            <Space direction="vertical" size="small" style={{ width: '100%' }}>
              <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
                <SortableContext items={items.map((i) => i.key)} strategy={verticalListSortingStrategy}>
                  {items.map((item, index) => (
                    <SortableField key={item.key} id={item.key}>
                      {(handle) => (
                        <FieldEditor
                          t={t}
                          index={index}
                          name={item.name}
                          handle={handle}
                          targets={targets}
                          storedKeys={storedKeys}
                          form={form}
                          onRemove={() => remove(item.name)}
                        />
                      )}
                    </SortableField>
                  ))}
                </SortableContext>
              </DndContext>
              <Form.ErrorList errors={errors} />
              {items.length < 50 && (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add(newField())} block>
                  {t('custom-entities.addField')}
                </Button>
              )}
            </Space>
          );
        }}
      </Form.List>
    </Card>
  );
}

function SortableField({ id, children }: { id: number; children(handle: ReactNode): ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const { t } = useTranslation();
  const handle = (
    <Button
      ref={setActivatorNodeRef}
      type="text"
      size="small"
      icon={<HolderOutlined />}
      style={{ cursor: 'grab', touchAction: 'none' }}
      title={t('custom-entities.dragToMove')}
      {...attributes}
      {...listeners}
      aria-label={t('custom-entities.dragToMove')}
    />
  );
  return (
    <div
      ref={setNodeRef}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
      }}
    >
      {children(handle)}
    </div>
  );
}

interface EditorProps {
  t: Translate;
  index: number;
  name: number;
  handle: ReactNode;
  targets: { value: string; label: string }[];
  storedKeys: ReadonlySet<string>;
  form: FormInstance<Values>;
  onRemove(): void;
}

function FieldEditor({ t, index, name, handle, targets, storedKeys, form, onRemove }: EditorProps) {
  // Watch the whole list and pick this card's entry at render: a watch keeps the path it was
  // first given, and a card dragged elsewhere takes another index (its key and type would stay
  // those of the field that used to be there).
  const fields = Form.useWatch('fields', form) as Partial<EntityField>[] | undefined;
  const type = fields?.[name]?.type;
  const key = fields?.[name]?.key;
  const stored = Boolean(key) && storedKeys.has(key!);
  const required = [{ required: true, message: t('forms.required') }];
  return (
    <Card
      size="small"
      type="inner"
      data-testid={`entity-field-${index}`}
      title={
        <Space>
          {handle}
          <span>{t('custom-entities.fieldTitle', { n: index + 1 })}</span>
          {key && <Typography.Text code>{key}</Typography.Text>}
        </Space>
      }
      extra={
        <Button
          size="small"
          danger
          type="text"
          icon={<DeleteOutlined />}
          onClick={onRemove}
          title={t('custom-entities.removeField')}
          aria-label={t('custom-entities.removeField')}
        />
      }
    >
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item
            name={[name, 'key']}
            label={t('custom-entities.fields.key')}
            rules={[...required, { pattern: KEY, message: t('directory.keyFormat') }]}
            extra={stored ? t('custom-entities.keyFixed') : undefined}
          >
            <Input autoComplete="off" maxLength={40} disabled={stored} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[name, 'label_el']} label={t('custom-entities.fields.label_el')} rules={required}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[name, 'label_en']} label={t('custom-entities.fields.label_en')} rules={required}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[name, 'type']} label={t('custom-entities.fields.type')} rules={required}>
            <Select options={ENTITY_FIELD_TYPES.map((v) => ({ value: v, label: t(`custom-entities.types.${v}`) }))} />
          </Form.Item>
        </Col>
        {isChoice(type) && (
          <Col xs={24} md={16}>
            <Form.Item name={[name, 'options']} label={t('custom-entities.fields.options')} rules={required} extra={t('student-custom-fields.optionsHint')}>
              <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', ';']} />
            </Form.Item>
          </Col>
        )}
        {type === 'REFERENCE' && (
          <Col xs={24} md={16}>
            <Form.Item name={[name, 'target']} label={t('custom-entities.fields.target')} rules={required}>
              <Select showSearch optionFilterProp="label" options={targets} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24}>
          <Space wrap size="large">
            <Form.Item name={[name, 'required']} valuePropName="checked" noStyle>
              <Checkbox>{t('custom-entities.fields.required')}</Checkbox>
            </Form.Item>
            <Form.Item name={[name, 'shown_in_list']} valuePropName="checked" noStyle>
              <Checkbox>{t('custom-entities.fields.shown_in_list')}</Checkbox>
            </Form.Item>
            <Form.Item name={[name, 'searchable']} valuePropName="checked" noStyle>
              <Checkbox>{t('custom-entities.fields.searchable')}</Checkbox>
            </Form.Item>
          </Space>
        </Col>
      </Row>
    </Card>
  );
}

/** The record form as users will see it, redrawn as the fields change (nothing is saved from it). */
function Preview({ form, t }: { form: FormInstance<Values>; t: Translate }) {
  const { i18n } = useTranslation();
  const values = (Form.useWatch([], form) as Partial<Values> | undefined) ?? {};
  const [preview] = Form.useForm();
  const fields = (values.fields ?? []).filter(Boolean).map((f, i) => previewField(f, i, i18n.language));
  const name = values.name_el || values.name_en ? entityName({ name_el: values.name_el ?? '', name_en: values.name_en ?? '', slug: '' }, i18n.language) : '';
  return (
    <Card title={t('custom-entities.preview')} size="small" style={{ position: 'sticky', top: 16 }} data-testid="entity-preview">
      {name && <SectionTitle>{t('customEntities.records.create', { name })}</SectionTitle>}
      {fields.length === 0 ? (
        <Empty description={t('custom-entities.previewEmpty')} />
      ) : (
        <Form form={preview} layout="vertical" component="div">
          {fields.map(({ def, label }) => (
            <FieldFormItem key={def.name} field={def} label={label} ctx={{ t, mode: 'create' }} />
          ))}
        </Form>
      )}
      <Typography.Text type="secondary">{t('custom-entities.previewHint')}</Typography.Text>
    </Card>
  );
}
